import { DEFAULT_LOCALE } from '@solar/shared';
import { i18n } from './i18n-instance';

/** What a signal's display name is made from: its technical key and the name stored with it. */
export interface NamedSignal {
  key: string;
  name: string;
}

const CATALOGUE = 'signals.standardNames';

/**
 * The catalogue entry of a signal whose stored name is still the standard Turkish name of its key (as the
 * demo and the device templates write it), or null. One key can have several standard names by device
 * type (`temperature` of an inverter and of a transformer), kept as `key__variant` entries. A name a
 * person gave the signal matches none and stays theirs.
 */
function standardEntry(signal: NamedSignal): string | null {
  const bundle: unknown = i18n.getResourceBundle(DEFAULT_LOCALE, 'translation');
  const names = (bundle as { signals?: { standardNames?: Record<string, string> } } | undefined)?.signals
    ?.standardNames;
  if (!names) return null;
  const stored = signal.name.trim();
  for (const [entry, turkish] of Object.entries(names)) {
    if ((entry === signal.key || entry.startsWith(`${signal.key}__`)) && turkish === stored) return entry;
  }
  return null;
}

/**
 * A signal's name in the interface language: the catalogue's name for a standard signal, the stored name
 * for one a person named, and the technical key when there is no name at all. Components that show it
 * re-render on a language change through their own useTranslation.
 */
export function signalName(signal: NamedSignal): string {
  const entry = standardEntry(signal);
  if (entry) return i18n.t(`${CATALOGUE}.${entry}` as never);
  return signal.name.trim() || signal.key;
}
