import { DEFAULT_LOCALE } from '@solar/shared';
import { i18n } from './i18n-instance';

/** What a signal's display name is made from: its technical key and the name stored with it. */
export interface NamedSignal {
  key: string;
  name: string;
}

const CATALOGUE = 'signals.standardNames';

/** A catalogue entry and the values its name is written with (`n` of a numbered entry). */
interface StandardEntry {
  entry: string;
  values: Record<string, string>;
}

/**
 * The input number of `key` under a numbered entry, whose key holds `{n}` for it (`string{n}_dc_voltage`:
 * one entry for a device template's 1…24 strings), or null when the key is not of that entry.
 */
function numberIn(entry: string, key: string): string | null {
  const at = entry.indexOf('{n}');
  if (at < 0) return null;
  const head = entry.slice(0, at);
  const tail = entry.slice(at + 3);
  if (!key.startsWith(head) || !key.endsWith(tail) || key.length <= head.length + tail.length) return null;
  const n = key.slice(head.length, key.length - tail.length);
  return /^\d+$/.test(n) ? n : null;
}

/**
 * The catalogue entry of a signal whose stored name is still the standard Turkish name of its key (as the
 * demo and the device templates write it), or null. One key can have several standard names by device
 * type (`temperature` of an inverter and of a transformer), kept as `key__variant` entries; a numbered
 * entry (`string{n}_…`) names every input's signal. A name a person gave the signal matches none and stays
 * theirs.
 */
function standardEntry(signal: NamedSignal): StandardEntry | null {
  const bundle: unknown = i18n.getResourceBundle(DEFAULT_LOCALE, 'translation');
  const names = (bundle as { signals?: { standardNames?: Record<string, string> } } | undefined)?.signals
    ?.standardNames;
  if (!names) return null;
  const stored = signal.name.trim();
  for (const [entry, turkish] of Object.entries(names)) {
    if ((entry === signal.key || entry.startsWith(`${signal.key}__`)) && turkish === stored)
      return { entry, values: {} };
    const n = numberIn(entry, signal.key);
    if (n !== null && turkish.replaceAll('{{n}}', n) === stored) return { entry, values: { n } };
  }
  return null;
}

/**
 * A signal's name in the interface language: the catalogue's name for a standard signal, the stored name
 * for one a person named, and the technical key when there is no name at all. Components that show it
 * re-render on a language change through their own useTranslation.
 */
export function signalName(signal: NamedSignal): string {
  const standard = standardEntry(signal);
  if (standard) return i18n.t(`${CATALOGUE}.${standard.entry}` as never, standard.values);
  return signal.name.trim() || signal.key;
}
