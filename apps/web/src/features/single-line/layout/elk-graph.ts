import type { ElkNode, ElkPoint } from 'elkjs/lib/elk-api';
import type { Topology, TopologyNode } from '@solar/shared';

/** A node's drawn box in diagram units (px): its centre and size. */
export interface Box {
  cx: number;
  cy: number;
  widthPx: number;
  heightPx: number;
}

/** What the automatic layout answered: every node's box and every edge's orthogonal route. */
export interface AutoLayout {
  boxes: Map<string, Box>;
  routes: Map<string, ElkPoint[]>;
}

/** Box sizes: a device carries its symbol, name, live power and status; the busbar is a short bar ELK widens. */
export const DEVICE_SIZE = { widthPx: 156, heightPx: 112 };
export const GRID_SIZE = { widthPx: 132, heightPx: 88 };
export const BUSBAR_SIZE = { widthPx: 48, heightPx: 10 };

export const sizeOf = (node: Pick<TopologyNode, 'kind'>) =>
  node.kind === 'device' ? DEVICE_SIZE : node.kind === 'grid' ? GRID_SIZE : BUSBAR_SIZE;

/**
 * ELK's layered algorithm top-down (grid connection at the top, string boxes at the bottom) with
 * orthogonal edges; nodes keep the server's order (device id) within a layer, so the drawing is stable.
 */
export const ELK_LAYOUT_OPTIONS: Record<string, string> = {
  'elk.algorithm': 'layered',
  'elk.direction': 'DOWN',
  'elk.edgeRouting': 'ORTHOGONAL',
  'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
  'elk.spacing.nodeNode': '24',
  'elk.layered.spacing.nodeNodeBetweenLayers': '44',
  // Observing devices (weather station, camera) without a link join the top layer beside the grid
  // connection instead of a row of their own above it.
  'elk.separateConnectedComponents': 'false',
  'elk.padding': '[top=16,left=16,bottom=16,right=16]',
};

/** The topology as an ELK graph: one child per node (sized by kind), one edge per edge. */
export function toElkGraph(topology: Topology): ElkNode {
  return {
    id: 'root',
    layoutOptions: ELK_LAYOUT_OPTIONS,
    children: topology.nodes.map((n) => ({ id: n.id, width: sizeOf(n).widthPx, height: sizeOf(n).heightPx })),
    edges: topology.edges.map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  };
}

/** ELK's answer as boxes by node id and routes (start, bends, end) by edge id. */
export function readElkLayout(result: ElkNode): AutoLayout {
  const boxes = new Map<string, Box>();
  for (const c of result.children ?? []) {
    const widthPx = c.width ?? 0;
    const heightPx = c.height ?? 0;
    boxes.set(c.id, { cx: (c.x ?? 0) + widthPx / 2, cy: (c.y ?? 0) + heightPx / 2, widthPx, heightPx });
  }
  const routes = new Map<string, ElkPoint[]>();
  for (const e of result.edges ?? []) {
    const section = e.sections?.[0];
    if (section) routes.set(e.id, [section.startPoint, ...(section.bendPoints ?? []), section.endPoint]);
  }
  return { boxes, routes };
}

/** A string that changes whenever the graph's shape changes (not its positions): the layout's cache key. */
export const shapeOf = (topology: Topology): string =>
  `${topology.nodes.map((n) => n.id).join(',')}|${topology.edges.map((e) => e.id).join(',')}`;

/** elkjs (1.4 MB) in a chunk of its own, loaded once; the page asks for it while the topology loads. */
export const loadElk = () => import('elkjs/lib/elk.bundled.js');

/** Lays the topology out with elkjs. */
export async function layoutTopology(topology: Topology): Promise<AutoLayout> {
  const { default: ELK } = await loadElk();
  return readElkLayout(await new ELK().layout(toElkGraph(topology)));
}
