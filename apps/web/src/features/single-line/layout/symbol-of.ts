import type { TopologyNode } from '@solar/shared';

/** The IEC 60617-style symbols the diagram draws. */
export type SymbolKind =
  | 'grid'
  | 'busbar'
  | 'meter'
  | 'transformer'
  | 'inverter'
  | 'string_box'
  | 'breaker'
  | 'weather_station'
  | 'camera'
  | 'logger';

/** The symbol of a node: its kind for the grid and busbars, its device type otherwise (a relay trips a breaker). */
export function symbolOf(node: Pick<TopologyNode, 'kind' | 'device_type'>): SymbolKind {
  if (node.kind === 'grid') return 'grid';
  if (node.kind === 'busbar') return 'busbar';
  switch (node.device_type) {
    case 'meter':
    case 'transformer':
    case 'inverter':
    case 'string_box':
    case 'weather_station':
    case 'camera':
      return node.device_type;
    case 'protection_relay':
      return 'breaker';
    default:
      return 'logger';
  }
}

/** Where a device element leads: its own page for inverters and cameras, else the values drawer. */
export function deviceTarget(
  node: Pick<TopologyNode, 'device_id' | 'device_type'>,
): { page: string } | { drawer: number } | null {
  if (node.device_id === null) return null;
  if (node.device_type === 'inverter') return { page: `/inverter-detay/${node.device_id}` };
  if (node.device_type === 'camera') return { page: `/kamera-detay/${node.device_id}` };
  return { drawer: node.device_id };
}
