import type { DeviceType, Topology, TopologyEdge, TopologyNode } from '@solar/shared';

export interface GraphDevice {
  id: number;
  parent_device_id: number | null;
  type: DeviceType;
  name: string;
  rated_power_kw: number | null;
  is_active: boolean;
  power_signal_id: number | null;
}

export type Position = NonNullable<TopologyNode['position']>;

/** Devices on the energy path; the others (weather station, camera, logger) only observe it. */
const POWER_TYPES: ReadonlySet<DeviceType> = new Set([
  'meter',
  'transformer',
  'protection_relay',
  'inverter',
  'string_box',
]);

export const GRID_NODE_ID = 'grid';
export const deviceNodeId = (deviceId: number) => `device:${deviceId}`;
const busbarNodeId = (parentNodeId: string) => `busbar:${parentNodeId}`;

/** A device as the plant's wiring places it: its parent and its type. */
export type WiredDevice = Pick<GraphDevice, 'id' | 'parent_device_id' | 'type'>;

/**
 * The plant's revenue meter at the point of connection: its one top-level meter without power devices
 * under it, or null when there is none or more than one.
 */
function gridMeterOf<D extends WiredDevice>(devices: readonly D[], parentOf: (d: D) => D | null): D | null {
  const isPower = (d: D) => POWER_TYPES.has(d.type);
  const hasPowerChildren = (d: D) => devices.some((c) => isPower(c) && parentOf(c)?.id === d.id);
  const gridMeters = devices.filter(
    (d) => isPower(d) && parentOf(d) === null && d.type === 'meter' && !hasPowerChildren(d),
  );
  return gridMeters.length === 1 ? gridMeters[0]! : null;
}

/**
 * Each device of one plant and the device right above it on the single-line diagram (buildTopology): its
 * parent, or for a top-level power device the grid meter it hangs from; null at the top. The alarms read it
 * to group an inverter's alarm under its transformer's or meter's (docs/architecture.md, "Alarm groups").
 */
export function upstreamDevices(devices: readonly WiredDevice[]): Map<number, number | null> {
  const byId = new Map(devices.map((d) => [d.id, d]));
  const parentOf = (d: WiredDevice) =>
    d.parent_device_id !== null && byId.has(d.parent_device_id) ? byId.get(d.parent_device_id)! : null;
  const gridMeter = gridMeterOf(devices, parentOf);
  const out = new Map<number, number | null>();
  for (const d of devices) {
    const parent = parentOf(d);
    if (parent) out.set(d.id, parent.id);
    else if (POWER_TYPES.has(d.type) && gridMeter && d.id !== gridMeter.id) out.set(d.id, gridMeter.id);
    else out.set(d.id, null);
  }
  return out;
}

/**
 * The single-line graph of one plant's devices. Edges follow parent_device_id (transformer → inverters →
 * string boxes). The top-level power devices hang from the grid connection — through the plant's meter
 * when it has exactly one top-level meter without power children of its own, since the revenue meter sits
 * at the point of connection (the demo seeds the meter and the transformer both at the top level). Where
 * a node feeds several power devices a busbar junction is drawn between them. Top-level observing devices
 * stay unconnected; one with a parent hangs from it by an `auxiliary` edge. Deterministic: nodes in device
 * id order after the grid, each busbar right after its feeder.
 */
export function buildTopology(
  plant: { id: number; name: string },
  devices: readonly GraphDevice[],
  positions: ReadonlyMap<string, Position>,
): Topology {
  const byId = new Map(devices.map((d) => [d.id, d]));
  const sorted = [...devices].sort((a, b) => a.id - b.id);
  const isPower = (d: GraphDevice) => POWER_TYPES.has(d.type);
  // A parent outside the plant (or missing) cannot be drawn: the device counts as top-level.
  const parentOf = (d: GraphDevice) =>
    d.parent_device_id !== null && byId.has(d.parent_device_id) ? byId.get(d.parent_device_id)! : null;

  const powerChildren = new Map<string, string[]>();
  const auxiliary: TopologyEdge[] = [];
  const addPower = (source: string, target: string) => {
    const list = powerChildren.get(source) ?? [];
    list.push(target);
    powerChildren.set(source, list);
  };

  const gridMeter = gridMeterOf(sorted, parentOf);

  for (const d of sorted) {
    const parent = parentOf(d);
    const id = deviceNodeId(d.id);
    if (parent) {
      if (isPower(d) && isPower(parent)) addPower(deviceNodeId(parent.id), id);
      else
        auxiliary.push({
          id: `${deviceNodeId(parent.id)}->${id}`,
          source: deviceNodeId(parent.id),
          target: id,
          kind: 'auxiliary',
        });
    } else if (isPower(d)) {
      if (gridMeter && d.id !== gridMeter.id) addPower(deviceNodeId(gridMeter.id), id);
      else addPower(GRID_NODE_ID, id);
    }
  }

  const node = (fields: Omit<TopologyNode, 'position'>): TopologyNode => ({
    ...fields,
    position: positions.get(fields.id) ?? null,
  });
  const junction = (id: string, kind: 'grid' | 'busbar') =>
    node({
      id,
      kind,
      device_id: null,
      device_type: null,
      name: null,
      rated_power_kw: null,
      is_active: null,
      power_signal_id: null,
    });

  const nodes: TopologyNode[] = [junction(GRID_NODE_ID, 'grid')];
  const edges: TopologyEdge[] = [];
  const connect = (source: string) => {
    const children = powerChildren.get(source) ?? [];
    // The grid connection is itself the junction of its feeders.
    if (children.length > 1 && source !== GRID_NODE_ID) {
      const busbar = busbarNodeId(source);
      nodes.push(junction(busbar, 'busbar'));
      edges.push({ id: `${source}->${busbar}`, source, target: busbar, kind: 'power' });
      for (const child of children)
        edges.push({ id: `${busbar}->${child}`, source: busbar, target: child, kind: 'power' });
    } else {
      for (const child of children)
        edges.push({ id: `${source}->${child}`, source, target: child, kind: 'power' });
    }
  };
  connect(GRID_NODE_ID);
  for (const d of sorted) {
    nodes.push(
      node({
        id: deviceNodeId(d.id),
        kind: 'device',
        device_id: d.id,
        device_type: d.type,
        name: d.name,
        rated_power_kw: d.rated_power_kw,
        is_active: d.is_active,
        power_signal_id: d.power_signal_id,
      }),
    );
    connect(deviceNodeId(d.id));
  }
  edges.push(...auxiliary);
  return { plant_id: plant.id, plant_name: plant.name, nodes, edges };
}
