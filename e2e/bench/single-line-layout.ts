/**
 * bench:single-line — the single-line diagram's layout costs in Node (the same code the page runs):
 * elkjs's layered layout of a demo-sized plant (8 inverters), a 40-inverter plant with two string boxes
 * each, and a 200-inverter one; and, for the 40-inverter plant, one drag frame's work (merge positions,
 * busbar spans, edge routes). BENCH_RUNS (20) layouts, 1,000 frames. Prints p50/p95 in ms.
 */
import type { Topology, TopologyNode } from '@solar/shared';
import { layoutTopology } from '../../apps/web/src/features/single-line/layout/elk-graph';
import {
  busbarSpans,
  mergePositions,
  movedNodes,
  routeEdges,
} from '../../apps/web/src/features/single-line/layout/positions';
import { recordLatencies } from './report';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const FRAMES = 1_000;

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** grid → meter → transformer → busbar → N inverters, each with `boxes` string boxes, plus a station and a camera. */
function plant(inverters: number, boxes: number): Topology {
  let id = 0;
  const device = (type: TopologyNode['device_type']): TopologyNode => ({
    id: `device:${++id}`,
    kind: 'device',
    device_id: id,
    device_type: type,
    name: `${type}-${id}`,
    rated_power_kw: 100,
    is_active: true,
    power_signal_id: id,
    position: null,
  });
  const junction = (nodeId: string, kind: 'grid' | 'busbar'): TopologyNode => ({
    ...device(null),
    id: nodeId,
    kind,
    device_id: null,
  });
  const nodes: TopologyNode[] = [junction('grid', 'grid')];
  const edges: Topology['edges'] = [];
  const link = (source: string, target: string) =>
    edges.push({ id: `${source}->${target}`, source, target, kind: 'power' });
  const meter = device('meter');
  const trafo = device('transformer');
  nodes.push(meter, trafo, junction(`busbar:${trafo.id}`, 'busbar'));
  link('grid', meter.id);
  link(meter.id, trafo.id);
  link(trafo.id, `busbar:${trafo.id}`);
  for (let i = 0; i < inverters; i++) {
    const inv = device('inverter');
    nodes.push(inv);
    link(`busbar:${trafo.id}`, inv.id);
    const children = Array.from({ length: boxes }, () => device('string_box'));
    if (children.length > 1) {
      nodes.push(junction(`busbar:${inv.id}`, 'busbar'));
      link(inv.id, `busbar:${inv.id}`);
    }
    for (const c of children) {
      nodes.push(c);
      link(children.length > 1 ? `busbar:${inv.id}` : inv.id, c.id);
    }
  }
  nodes.push(device('weather_station'), device('camera'));
  return { plant_id: 1, plant_name: 'bench', nodes, edges };
}

for (const [name, topo] of [
  ['demo (8 inverters)', plant(8, 0)],
  ['40 inverters × 2 string boxes', plant(40, 2)],
  ['200 inverters', plant(200, 0)],
] as const) {
  const ms: number[] = [];
  let layout = await layoutTopology(topo);
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    layout = await layoutTopology(topo);
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  console.log(
    `layout ${name.padEnd(30)} ${String(topo.nodes.length).padStart(4)} nodes  p50 ${pct(ms, 50).toFixed(1)} ms  p95 ${pct(ms, 95).toFixed(1)} ms`,
  );
  recordLatencies('single-line', `layout ${name}`, ms, {
    database: 'none',
    params: { nodes: topo.nodes.length, runs: RUNS },
  });
  if (topo.nodes.length > 100 && topo.nodes.length < 200) {
    const frames: number[] = [];
    const dragged = topo.nodes.find((n) => n.device_type === 'inverter')!.id;
    for (let f = 0; f < FRAMES; f++) {
      const start = performance.now();
      const boxes = mergePositions(topo, layout, new Map([[dragged, { x_px: f, y_px: f }]]));
      const spans = busbarSpans(topo, boxes);
      routeEdges(topo.edges, boxes, spans, layout, movedNodes(boxes, layout));
      frames.push(performance.now() - start);
    }
    frames.sort((a, b) => a - b);
    console.log(
      `drag frame (merge + busbars + routes), ${name}: p50 ${pct(frames, 50).toFixed(2)} ms  p95 ${pct(frames, 95).toFixed(2)} ms`,
    );
    recordLatencies('single-line', `drag frame ${name}`, frames, {
      database: 'none',
      params: { nodes: topo.nodes.length, frames: FRAMES },
    });
  }
}
