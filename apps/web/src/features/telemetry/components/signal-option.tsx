import type { ReactNode } from 'react';
import Typography from 'antd/es/typography';
import type { CatalogSignal } from '@solar/shared';
import { signalName } from '../../../lib/signal-name';

/** A signal as a select option: its display name (with unit) and, when it differs, its technical name. */
export interface SignalOption {
  value: number;
  label: string;
  technical: string | null;
  /** What the search matches: both names, so an engineer may type the SunSpec point or key. */
  search: string;
}

/** The option of a catalog signal. */
export function signalOption(signal: CatalogSignal): SignalOption {
  const name = signalName(signal);
  const label = signal.unit ? `${name} (${signal.unit})` : name;
  const technical = signal.key !== name ? signal.key : null;
  return { value: signal.id, label, technical, search: technical ? `${label} ${technical}` : label };
}

/** The search setting of a signal select: by display and technical name. */
export const SIGNAL_SEARCH = { optionFilterProp: 'search' } as const;

/**
 * `optionRender` of a signal select: the display name, and the technical name beside it in code type.
 * The chosen value still shows the display name only (the option's `label`).
 */
export function renderSignalOption(option: { data: { label?: ReactNode; technical?: unknown } }) {
  const { label, technical } = option.data;
  return (
    <span>
      {label}
      {typeof technical === 'string' && (
        <Typography.Text type="secondary" code style={{ marginInlineStart: 8 }}>
          {technical}
        </Typography.Text>
      )}
    </span>
  );
}
