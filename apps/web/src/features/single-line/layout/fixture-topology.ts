import type { Topology, TopologyNode } from '@solar/shared';

/** Test fixture of the layout tests. */
const device = (id: number, type: TopologyNode['device_type'], position: TopologyNode['position'] = null) =>
  ({
    id: `device:${id}`,
    kind: 'device',
    device_id: id,
    device_type: type,
    name: `D${id}`,
    rated_power_kw: null,
    is_active: true,
    power_signal_id: null,
    position,
  }) satisfies TopologyNode;
const junction = (id: string, kind: 'grid' | 'busbar') =>
  ({ ...device(0, null), id, kind, device_id: null, name: null }) satisfies TopologyNode;
const edge = (source: string, target: string, kind: 'power' | 'auxiliary' = 'power') => ({
  id: `${source}->${target}`,
  source,
  target,
  kind,
});

/** A demo-like plant: grid → meter → transformer → busbar → 3 inverters, one with a string box; a camera. */
export const PLANT: Topology = {
  plant_id: 7,
  plant_name: 'Demo',
  nodes: [
    junction('grid', 'grid'),
    device(1, 'meter'),
    device(2, 'transformer'),
    junction('busbar:device:2', 'busbar'),
    device(3, 'inverter'),
    device(4, 'inverter'),
    device(5, 'inverter'),
    device(6, 'string_box'),
    device(9, 'camera'),
  ],
  edges: [
    edge('grid', 'device:1'),
    edge('device:1', 'device:2'),
    edge('device:2', 'busbar:device:2'),
    edge('busbar:device:2', 'device:3'),
    edge('busbar:device:2', 'device:4'),
    edge('busbar:device:2', 'device:5'),
    edge('device:3', 'device:6'),
  ],
};
