import { describe, expect, it } from 'vitest';
import type { AutoLayout, Box } from './elk-graph';
import { PLANT } from './fixture-topology';
import {
  boundsOf,
  busbarSpans,
  draftsToBody,
  elbow,
  mergePositions,
  movedNodes,
  routeEdges,
  type Drafts,
} from './positions';

const box = (cx: number, cy: number, widthPx = 100, heightPx = 50): Box => ({ cx, cy, widthPx, heightPx });

/** A hand-made automatic layout of PLANT. */
const AUTO: AutoLayout = {
  boxes: new Map([
    ['grid', box(300, 40)],
    ['device:1', box(300, 140)],
    ['device:2', box(300, 240)],
    ['busbar:device:2', box(300, 320, 40, 10)],
    ['device:3', box(100, 400)],
    ['device:4', box(300, 400)],
    ['device:5', box(500, 400)],
    ['device:6', box(100, 500)],
    ['device:9', box(600, 40)],
  ]),
  routes: new Map([
    [
      'device:1->device:2',
      [
        { x: 300, y: 165 },
        { x: 300, y: 215 },
      ],
    ],
  ]),
};

describe('mergePositions', () => {
  it('places a node at its draft, else its saved position, else the automatic layout', () => {
    const topo = {
      ...PLANT,
      nodes: PLANT.nodes.map((n) =>
        n.id === 'device:4' || n.id === 'device:5' ? { ...n, position: { x_px: 900, y_px: 900 } } : n,
      ),
    };
    const drafts: Drafts = new Map([
      ['device:3', { x_px: 10, y_px: 20 }],
      ['device:5', null],
    ]);
    const boxes = mergePositions(topo, AUTO, drafts);
    expect(boxes.get('device:3')).toEqual(box(10, 20));
    expect(boxes.get('device:4')).toEqual(box(900, 900));
    // A null draft forgets the saved position: back to the automatic layout.
    expect(boxes.get('device:5')).toEqual(box(500, 400));
    expect(boxes.get('grid')).toEqual(box(300, 40));
    expect([...movedNodes(boxes, AUTO)].sort()).toEqual(['device:3', 'device:4']);
  });
});

describe('busbarSpans', () => {
  it('spans the feeder and every connection wherever they are drawn', () => {
    const spans = busbarSpans(PLANT, AUTO.boxes);
    expect(spans.get('busbar:device:2')).toEqual({ x1: 100 - 16, x2: 500 + 16, y: 320 });
    const moved = new Map(AUTO.boxes).set('device:5', box(800, 400));
    expect(busbarSpans(PLANT, moved).get('busbar:device:2')!.x2).toBe(816);
  });
});

describe('routeEdges', () => {
  const spans = busbarSpans(PLANT, AUTO.boxes);

  it('drops busbar connections straight down and keeps ELK routes between unmoved nodes', () => {
    const routes = routeEdges(PLANT.edges, AUTO.boxes, spans, AUTO, new Set());
    expect(routes.get('busbar:device:2->device:5')).toEqual([
      { x: 500, y: 320 },
      { x: 500, y: 375 },
    ]);
    expect(routes.get('device:2->busbar:device:2')).toEqual([
      { x: 300, y: 265 },
      { x: 300, y: 320 },
    ]);
    expect(routes.get('device:1->device:2')).toBe(AUTO.routes.get('device:1->device:2'));
  });

  it('re-routes an edge as an orthogonal elbow once an end was moved', () => {
    const boxes = new Map(AUTO.boxes).set('device:2', box(500, 240));
    const routes = routeEdges(PLANT.edges, boxes, spans, AUTO, new Set(['device:2']));
    expect(routes.get('device:1->device:2')).toEqual([
      { x: 300, y: 165 },
      { x: 300, y: 190 },
      { x: 500, y: 190 },
      { x: 500, y: 215 },
    ]);
    expect(elbow(box(0, 0), box(0, 100))).toEqual([
      { x: 0, y: 25 },
      { x: 0, y: 75 },
    ]);
  });
});

describe('boundsOf and draftsToBody', () => {
  it('holds every box and busbar', () => {
    expect(boundsOf(AUTO.boxes, busbarSpans(PLANT, AUTO.boxes))).toEqual({
      minX: 50,
      minY: 15,
      maxX: 650,
      maxY: 525,
    });
    expect(boundsOf(new Map(), new Map())).toEqual({ minX: 0, minY: 0, maxX: 0, maxY: 0 });
  });

  it('sends every draft, null ones as forgotten', () => {
    expect(
      draftsToBody(
        new Map([
          ['grid', { x_px: 1, y_px: 2 }],
          ['device:3', null],
        ]),
      ),
    ).toEqual({
      positions: [
        { node_id: 'grid', position: { x_px: 1, y_px: 2 } },
        { node_id: 'device:3', position: null },
      ],
    });
  });
});
