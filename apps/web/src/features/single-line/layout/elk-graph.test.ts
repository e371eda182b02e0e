import { describe, expect, it } from 'vitest';
import {
  BUSBAR_SIZE,
  DEVICE_SIZE,
  GRID_SIZE,
  layoutTopology,
  readElkLayout,
  shapeOf,
  toElkGraph,
} from './elk-graph';
import { PLANT } from './fixture-topology';

describe('toElkGraph', () => {
  it('makes one sized child per node and one edge per edge, top-down layered with orthogonal routing', () => {
    const g = toElkGraph(PLANT);
    expect(g.layoutOptions).toMatchObject({
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.edgeRouting': 'ORTHOGONAL',
    });
    expect(g.children!.map((c) => c.id)).toEqual(PLANT.nodes.map((n) => n.id));
    const size = (id: string) => {
      const c = g.children!.find((x) => x.id === id)!;
      return { widthPx: c.width, heightPx: c.height };
    };
    expect(size('grid')).toEqual(GRID_SIZE);
    expect(size('busbar:device:2')).toEqual(BUSBAR_SIZE);
    expect(size('device:3')).toEqual(DEVICE_SIZE);
    expect(g.edges).toContainEqual({
      id: 'device:3->device:6',
      sources: ['device:3'],
      targets: ['device:6'],
    });
    expect(g.edges).toHaveLength(PLANT.edges.length);
  });

  it('changes its cache key with the graph, not with positions', () => {
    const moved = { ...PLANT, nodes: PLANT.nodes.map((n) => ({ ...n, position: { x_px: 1, y_px: 2 } })) };
    expect(shapeOf(moved)).toBe(shapeOf(PLANT));
    expect(shapeOf({ ...PLANT, edges: PLANT.edges.slice(1) })).not.toBe(shapeOf(PLANT));
  });
});

describe('readElkLayout', () => {
  it('answers centres from ELK top-left corners and routes from sections', () => {
    const layout = readElkLayout({
      id: 'root',
      children: [{ id: 'a', x: 10, y: 20, width: 100, height: 50 }],
      edges: [
        {
          id: 'e',
          sources: ['a'],
          targets: ['b'],
          sections: [
            { id: 's', startPoint: { x: 1, y: 2 }, bendPoints: [{ x: 1, y: 5 }], endPoint: { x: 4, y: 5 } },
          ],
        },
      ],
    });
    expect(layout.boxes.get('a')).toEqual({ cx: 60, cy: 45, widthPx: 100, heightPx: 50 });
    expect(layout.routes.get('e')).toEqual([
      { x: 1, y: 2 },
      { x: 1, y: 5 },
      { x: 4, y: 5 },
    ]);
  });
});

describe('layoutTopology (elkjs)', () => {
  it('stacks grid → meter → transformer → busbar → inverters → string box from top to bottom', async () => {
    const { boxes, routes } = await layoutTopology(PLANT);
    const y = (id: string) => boxes.get(id)!.cy;
    expect(y('grid')).toBeLessThan(y('device:1'));
    expect(y('device:1')).toBeLessThan(y('device:2'));
    expect(y('device:2')).toBeLessThan(y('busbar:device:2'));
    expect(y('busbar:device:2')).toBeLessThan(y('device:3'));
    // The inverters share a layer, side by side without overlapping.
    expect(y('device:4')).toBe(y('device:3'));
    const xs = ['device:3', 'device:4', 'device:5'].map((id) => boxes.get(id)!.cx).sort((a, b) => a - b);
    expect(xs[1]! - xs[0]!).toBeGreaterThanOrEqual(DEVICE_SIZE.widthPx);
    expect(y('device:3')).toBeLessThan(y('device:6'));
    // Orthogonal: every segment of every route is horizontal or vertical.
    for (const points of routes.values())
      for (let i = 1; i < points.length; i++)
        expect(points[i]!.x === points[i - 1]!.x || points[i]!.y === points[i - 1]!.y).toBe(true);
  });
});
