import type { ElkPoint } from 'elkjs/lib/elk-api';
import type { Topology, TopologyEdge } from '@solar/shared';
import type { AutoLayout, Box } from './elk-graph';

/** A node centre in diagram units (the saved position's meaning). */
export interface Point {
  x_px: number;
  y_px: number;
}

/**
 * Unsaved edits of the layout by node id: a position where a node was dragged, null where it goes back to
 * the automatic layout.
 */
export type Drafts = ReadonlyMap<string, Point | null>;

/** Where each node is drawn: a draft first, else its saved position, else the automatic layout. */
export function mergePositions(topology: Topology, auto: AutoLayout, drafts: Drafts): Map<string, Box> {
  const out = new Map<string, Box>();
  for (const n of topology.nodes) {
    const box = auto.boxes.get(n.id);
    if (!box) continue;
    const position = drafts.has(n.id) ? drafts.get(n.id) : n.position;
    out.set(n.id, position ? { ...box, cx: position.x_px, cy: position.y_px } : box);
  }
  return out;
}

/** Node ids drawn somewhere else than the automatic layout put them. */
export function movedNodes(boxes: ReadonlyMap<string, Box>, auto: AutoLayout): Set<string> {
  const moved = new Set<string>();
  for (const [id, box] of boxes) {
    const a = auto.boxes.get(id);
    if (!a || a.cx !== box.cx || a.cy !== box.cy) moved.add(id);
  }
  return moved;
}

/** A busbar drawn as a thick horizontal line at its node's height. */
export interface BusbarSpan {
  x1: number;
  x2: number;
  y: number;
}

/** Busbar overhang beyond its outermost connection. */
const BUSBAR_OVERHANG_PX = 16;

/** Each busbar spans its feeder and every outgoing connection, wherever those are drawn now. */
export function busbarSpans(topology: Topology, boxes: ReadonlyMap<string, Box>): Map<string, BusbarSpan> {
  const spans = new Map<string, BusbarSpan>();
  for (const n of topology.nodes) {
    if (n.kind !== 'busbar') continue;
    const bus = boxes.get(n.id);
    if (!bus) continue;
    const xs = topology.edges
      .filter((e) => e.source === n.id || e.target === n.id)
      .map((e) => boxes.get(e.source === n.id ? e.target : e.source)?.cx)
      .filter((x) => x !== undefined);
    const lo = Math.min(bus.cx - bus.widthPx / 2, ...xs.map((x) => x - BUSBAR_OVERHANG_PX));
    const hi = Math.max(bus.cx + bus.widthPx / 2, ...xs.map((x) => x + BUSBAR_OVERHANG_PX));
    spans.set(n.id, { x1: lo, x2: hi, y: bus.cy });
  }
  return spans;
}

const bottom = (b: Box): ElkPoint => ({ x: b.cx, y: b.cy + b.heightPx / 2 });
const top = (b: Box): ElkPoint => ({ x: b.cx, y: b.cy - b.heightPx / 2 });

/** An orthogonal elbow from the source's bottom to the target's top, turning half way down. */
export function elbow(source: Box, target: Box): ElkPoint[] {
  const from = bottom(source);
  const to = top(target);
  if (from.x === to.x) return [from, to];
  const midY = (from.y + to.y) / 2;
  return [from, { x: from.x, y: midY }, { x: to.x, y: midY }, to];
}

/**
 * Each edge's polyline: a busbar's connections drop straight onto it; an edge between two nodes where the
 * automatic layout left them keeps ELK's orthogonal route; any other (a node was moved) is re-routed as an
 * elbow.
 */
export function routeEdges(
  edges: readonly TopologyEdge[],
  boxes: ReadonlyMap<string, Box>,
  spans: ReadonlyMap<string, BusbarSpan>,
  auto: AutoLayout,
  moved: ReadonlySet<string>,
): Map<string, ElkPoint[]> {
  const out = new Map<string, ElkPoint[]>();
  for (const e of edges) {
    const s = boxes.get(e.source);
    const t = boxes.get(e.target);
    if (!s || !t) continue;
    const fromBus = spans.get(e.source);
    const toBus = spans.get(e.target);
    const elk = auto.routes.get(e.id);
    if (fromBus) out.set(e.id, [{ x: t.cx, y: fromBus.y }, top(t)]);
    else if (toBus) out.set(e.id, [bottom(s), { x: s.cx, y: toBus.y }]);
    else if (elk && !moved.has(e.source) && !moved.has(e.target)) out.set(e.id, elk);
    else out.set(e.id, elbow(s, t));
  }
  return out;
}

/** The rectangle that holds every box and busbar. */
export function boundsOf(
  boxes: ReadonlyMap<string, Box>,
  spans: ReadonlyMap<string, BusbarSpan>,
): { minX: number; minY: number; maxX: number; maxY: number } {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const b of boxes.values()) {
    minX = Math.min(minX, b.cx - b.widthPx / 2);
    maxX = Math.max(maxX, b.cx + b.widthPx / 2);
    minY = Math.min(minY, b.cy - b.heightPx / 2);
    maxY = Math.max(maxY, b.cy + b.heightPx / 2);
  }
  for (const s of spans.values()) {
    minX = Math.min(minX, s.x1);
    maxX = Math.max(maxX, s.x2);
  }
  if (!Number.isFinite(minX)) return { minX: 0, minY: 0, maxX: 0, maxY: 0 };
  return { minX, minY, maxX, maxY };
}

/** The positions to save: every draft, a null one forgetting the saved position. */
export const draftsToBody = (drafts: Drafts) => ({
  positions: [...drafts].map(([node_id, position]) => ({ node_id, position })),
});
