import type { OperatingStatus } from '@solar/shared';
import { STATUS_RANK } from '../plants';

/** A glyph per status, so that the marker's colour is never the only cue (shape and sign differ too). */
export const STATUS_GLYPH: Record<OperatingStatus, string> = {
  normal: '✓',
  warning: '!',
  fault: '✕',
  offline: '–',
  night: '☾',
};

/** The status that needs attention first among several (a cluster takes its worst plant's colour). */
export function worstStatus(statuses: Iterable<OperatingStatus>): OperatingStatus | null {
  let worst: OperatingStatus | null = null;
  for (const s of statuses) if (worst === null || STATUS_RANK[s] < STATUS_RANK[worst]) worst = s;
  return worst;
}

/**
 * A plant marker's inner HTML: a coloured badge with the status glyph and, shown only when the map has no
 * base tiles to place it by (map.css), the plant's name beside it.
 */
export function markerHtml(status: OperatingStatus, name = ''): string {
  return (
    `<span class="plant-marker plant-marker--${status}" aria-hidden="true">${STATUS_GLYPH[status]}</span>` +
    (name ? `<span class="plant-map-label" aria-hidden="true">${escapeHtml(name)}</span>` : '')
  );
}

/** The names a cluster writes beside itself without base tiles: the first few, then how many more. */
export function clusterNames(names: readonly string[], shown = 3): string {
  const sorted = [...names].sort((a, b) => a.localeCompare(b));
  const rest = sorted.length - shown;
  return sorted.slice(0, shown).join(', ') + (rest > 0 ? ` +${rest}` : '');
}

/** Escapes text for an HTML string (a cluster's screen-reader label is built as markup for Leaflet). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A cluster's inner HTML: its plant count in its worst status's colour, with a label for screen readers. */
export function clusterHtml(count: number, status: OperatingStatus, label: string, names = ''): string {
  return (
    `<span class="plant-cluster plant-marker--${status}" aria-hidden="true">${count}</span>` +
    `<span class="sr-only">${escapeHtml(label)}</span>` +
    (names ? `<span class="plant-map-label" aria-hidden="true">${escapeHtml(names)}</span>` : '')
  );
}

/** Marker size in px for a cluster of `count` plants: larger for more, within a touch-friendly range. */
export function clusterSizePx(count: number): number {
  return Math.min(56, 36 + Math.round(Math.log10(Math.max(1, count)) * 8));
}

export interface LatLng {
  latitude: number;
  longitude: number;
}

/** South-west and north-east corners around every point, or null when there is none. */
export function boundsOf(points: readonly LatLng[]): [[number, number], [number, number]] | null {
  if (points.length === 0) return null;
  let south = 90;
  let west = 180;
  let north = -90;
  let east = -180;
  for (const p of points) {
    south = Math.min(south, p.latitude);
    north = Math.max(north, p.latitude);
    west = Math.min(west, p.longitude);
    east = Math.max(east, p.longitude);
  }
  return [
    [south, west],
    [north, east],
  ];
}
