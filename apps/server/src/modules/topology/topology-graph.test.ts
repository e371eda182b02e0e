import { describe, expect, it } from 'vitest';
import { buildTopology, type GraphDevice } from './topology-graph';

const device = (id: number, type: GraphDevice['type'], parent: number | null = null): GraphDevice => ({
  id,
  parent_device_id: parent,
  type,
  name: `${type}-${id}`,
  rated_power_kw: null,
  is_active: true,
  power_signal_id: null,
});
const edgesOf = (devices: GraphDevice[]) =>
  buildTopology({ id: 1, name: 'P' }, devices, new Map()).edges.map(
    (e) => `${e.source} ${e.kind} ${e.target}`,
  );

describe('single-line graph', () => {
  it('puts the lone top-level meter at the grid connection, with a busbar where one node feeds several', () => {
    // The demo's shape: transformer and meter at the top level, inverters under the transformer.
    const devices = [
      device(10, 'transformer'),
      device(11, 'inverter', 10),
      device(12, 'inverter', 10),
      device(13, 'meter'),
      device(14, 'weather_station'),
      device(15, 'camera'),
    ];
    expect(edgesOf(devices)).toEqual([
      'grid power device:13',
      'device:10 power busbar:device:10',
      'busbar:device:10 power device:11',
      'busbar:device:10 power device:12',
      'device:13 power device:10',
    ]);
    const topology = buildTopology({ id: 1, name: 'P' }, devices, new Map());
    expect(topology.nodes.map((n) => n.id)).toEqual([
      'grid',
      'device:10',
      'busbar:device:10',
      'device:11',
      'device:12',
      'device:13',
      'device:14',
      'device:15',
    ]);
  });

  it('follows explicit parents down to string boxes and hangs observing devices by auxiliary edges', () => {
    const devices = [
      device(1, 'meter'),
      device(2, 'transformer', 1),
      device(3, 'inverter', 2),
      device(4, 'string_box', 3),
      device(5, 'string_box', 3),
      device(6, 'weather_station', 3),
    ];
    expect(edgesOf(devices)).toEqual([
      'grid power device:1',
      'device:1 power device:2',
      'device:2 power device:3',
      'device:3 power busbar:device:3',
      'busbar:device:3 power device:4',
      'busbar:device:3 power device:5',
      'device:3 auxiliary device:6',
    ]);
  });

  it('connects several top-level feeders (or several meters) straight to the grid, and survives a foreign parent', () => {
    expect(edgesOf([device(1, 'meter'), device(2, 'meter'), device(3, 'inverter', 99)])).toEqual([
      'grid power device:1',
      'grid power device:2',
      'grid power device:3',
    ]);
  });

  it('answers saved positions by node id and null for the rest', () => {
    const topology = buildTopology(
      { id: 1, name: 'P' },
      [device(1, 'inverter')],
      new Map([
        ['grid', { x_px: 1, y_px: 2 }],
        ['device:9', { x_px: 5, y_px: 5 }],
      ]),
    );
    expect(topology.nodes.map((n) => [n.id, n.position])).toEqual([
      ['grid', { x_px: 1, y_px: 2 }],
      ['device:1', null],
    ]);
  });
});
