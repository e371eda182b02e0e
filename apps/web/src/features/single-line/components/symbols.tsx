import type { ReactNode } from 'react';
import type { OperatingStatus } from '@solar/shared';
import type { SymbolKind } from '../layout/symbol-of';

/**
 * IEC 60617-style symbols, 40 × 40 units centred on (0, 0), stroked in the theme's text colour
 * (currentColor). Decorative: the element around them carries the accessible name.
 */
export function DeviceSymbol({ kind }: { kind: SymbolKind }) {
  return (
    <g className="sl-symbol" aria-hidden="true" data-symbol={kind}>
      {SYMBOLS[kind]}
    </g>
  );
}

const SYMBOLS: Record<SymbolKind, ReactNode> = {
  // Network infeed (IEC 60617 S00059-like): a hatched bar, with the circuit breaker of the connection.
  grid: (
    <>
      <line x1={-18} y1={-16} x2={18} y2={-16} strokeWidth={3} />
      {[-14, -6, 2, 10].map((x) => (
        <line key={x} x1={x} y1={-16} x2={x + 6} y2={-22} />
      ))}
      <line x1={0} y1={-16} x2={0} y2={-4} />
      <rect x={-6} y={-4} width={12} height={12} fill="none" />
      <line x1={-4} y1={-2} x2={4} y2={6} />
      <line x1={4} y1={-2} x2={-4} y2={6} />
      <line x1={0} y1={8} x2={0} y2={20} />
    </>
  ),
  busbar: <line x1={-18} y1={0} x2={18} y2={0} strokeWidth={5} />,
  // Integrating meter (S01229): a circle marked kWh, drawn as strokes so that the element's accessible
  // name (its visible texts) is not joined by the symbol's letters.
  meter: (
    <>
      <circle r={17} fill="none" />
      <path
        className="sl-symbol-letters"
        d="M-11 -5 V5 M-11 1 L-7 -2 M-10 0 L-7 5 M-5 -5 L-3 5 L-1 -1 L1 5 L3 -5 M6 -5 V5 M6 1 Q6 -1 8 -1 Q10 -1 10 1 V5"
        fill="none"
      />
    </>
  ),
  // Two-winding transformer (S00841): two overlapping circles.
  transformer: (
    <>
      <circle cy={-7} r={11} fill="none" />
      <circle cy={7} r={11} fill="none" />
    </>
  ),
  // Inverter / converter DC → AC (S00213): a square with a diagonal, = above and ~ below.
  inverter: (
    <>
      <rect x={-17} y={-17} width={34} height={34} fill="none" />
      <line x1={-17} y1={17} x2={17} y2={-17} />
      <line x1={-12} y1={-10} x2={-3} y2={-10} />
      <line x1={-12} y1={-6} x2={-3} y2={-6} />
      <path d="M3 9 q2.5 -4 5 0 t5 0" fill="none" />
    </>
  ),
  // String box / combiner: strings joined onto one output through fuses.
  string_box: (
    <>
      <rect x={-17} y={-12} width={34} height={24} fill="none" />
      {[-9, 0, 9].map((x) => (
        <g key={x}>
          <line x1={x} y1={12} x2={x} y2={19} />
          <rect x={x - 2} y={0} width={4} height={8} fill="none" />
          <line x1={x} y1={-6} x2={x} y2={0} />
        </g>
      ))}
      <line x1={-9} y1={-6} x2={9} y2={-6} />
      <line x1={0} y1={-12} x2={0} y2={-19} />
    </>
  ),
  // Circuit breaker (S00287): a switch contact with a cross.
  breaker: (
    <>
      <line x1={0} y1={-19} x2={0} y2={-8} />
      <line x1={0} y1={12} x2={0} y2={19} />
      <line x1={0} y1={12} x2={-10} y2={-6} />
      <line x1={-4} y1={-12} x2={4} y2={-4} />
      <line x1={4} y1={-12} x2={-4} y2={-4} />
    </>
  ),
  // Auxiliary: a sun over a pyranometer dome.
  weather_station: (
    <>
      <circle cy={-4} r={7} fill="none" />
      {[0, 45, 90, 135, 180, 225, 270, 315].map((a) => {
        const r = (a * Math.PI) / 180;
        return (
          <line
            key={a}
            x1={Math.cos(r) * 10}
            y1={-4 + Math.sin(r) * 10}
            x2={Math.cos(r) * 14}
            y2={-4 + Math.sin(r) * 14}
          />
        );
      })}
      <line x1={-14} y1={16} x2={14} y2={16} />
      <line x1={0} y1={6} x2={0} y2={16} />
    </>
  ),
  // Auxiliary: a camera body and lens.
  camera: (
    <>
      <rect x={-16} y={-9} width={22} height={18} rx={2} fill="none" />
      <path d="M6 -4 L16 -10 L16 10 L6 4 Z" fill="none" />
      <circle cx={-5} r={4} fill="none" />
    </>
  ),
  logger: (
    <>
      <rect x={-15} y={-12} width={30} height={24} rx={2} fill="none" />
      <line x1={-9} y1={-4} x2={9} y2={-4} />
      <line x1={-9} y1={2} x2={9} y2={2} />
      <line x1={-9} y1={8} x2={3} y2={8} />
    </>
  ),
};

/** The colour of each status as a theme variable (both themes), with Ant Design's light value as fallback. */
export const STATUS_COLOUR: Record<OperatingStatus, string> = {
  normal: 'var(--ant-color-success, #52c41a)',
  warning: 'var(--ant-color-warning, #faad14)',
  fault: 'var(--ant-color-error, #ff4d4f)',
  offline: 'var(--ant-color-text-tertiary, #8c8c8c)',
  night: 'var(--ant-geekblue-6, #2f54eb)',
};

/**
 * A status glyph (radius 7, centred on (0, 0)): the same shapes as the legend's icons — check, exclamation,
 * cross, broken link, moon — so the status reads without colour.
 */
export function StatusGlyph({ status }: { status: OperatingStatus }) {
  const fill = STATUS_COLOUR[status];
  return (
    <g className="sl-status-glyph" aria-hidden="true">
      <circle r={7} fill={fill} stroke="none" />
      <g stroke="#fff" strokeWidth={1.6} fill="none" strokeLinecap="round">
        {status === 'normal' && <path d="M-3.5 0 L-1 2.8 L3.8 -2.8" />}
        {status === 'warning' && (
          <>
            <line x1={0} y1={-4} x2={0} y2={1} />
            <line x1={0} y1={3.6} x2={0} y2={3.8} />
          </>
        )}
        {status === 'fault' && (
          <>
            <line x1={-3} y1={-3} x2={3} y2={3} />
            <line x1={3} y1={-3} x2={-3} y2={3} />
          </>
        )}
        {status === 'offline' && (
          <>
            <line x1={-4} y1={0} x2={-1.5} y2={0} />
            <line x1={1.5} y1={0} x2={4} y2={0} />
            <line x1={-2} y1={3.5} x2={2} y2={-3.5} />
          </>
        )}
        {status === 'night' && <path d="M1.5 -4 A4.5 4.5 0 1 0 4 2.5 A3.5 3.5 0 0 1 1.5 -4 Z" fill="#fff" />}
      </g>
    </g>
  );
}
