import { describe, expect, it } from 'vitest';
import { defaultDashboard } from './default-layout';
import {
  addToLayouts,
  BREAKPOINT_NAMES,
  COLS,
  completeLayouts,
  deriveLayout,
  flowPack,
  removeFromLayouts,
  type GridItem,
} from './grid';
import { nextWidgetId, readStoredDashboard, toStoredDashboard } from './stored-layout';
import { LAYOUT_VERSION, WIDGET_TYPES, WIDGETS, type WidgetType } from './widgets';

/** True when no two items of the layout share a cell. */
function overlaps(items: readonly GridItem[]): boolean {
  return items.some((a, i) =>
    items.some((b, j) => j > i && a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h),
  );
}

/** JSON nesting depth of a value (a scalar is 0): the server bounds free-form JSON by it. */
function depth(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depth));
}

const all = () => true;

describe('flowPack and deriveLayout', () => {
  it('wraps to a new shelf as tall as the tallest widget of the row', () => {
    expect(
      flowPack(
        [
          { i: 'a', w: 8, h: 6 },
          { i: 'b', w: 4, h: 3 },
          { i: 'c', w: 6, h: 2 },
        ],
        12,
      ),
    ).toEqual([
      { i: 'a', x: 0, y: 0, w: 8, h: 6 },
      { i: 'b', x: 8, y: 0, w: 4, h: 3 },
      { i: 'c', x: 0, y: 6, w: 6, h: 2 },
    ]);
  });

  it('gives a phone one full-width column in the laptop reading order', () => {
    const lg: GridItem[] = [
      { i: 'right', x: 6, y: 0, w: 6, h: 4 },
      { i: 'below', x: 0, y: 4, w: 12, h: 2 },
      { i: 'left', x: 0, y: 0, w: 6, h: 5 },
    ];
    const types: Record<string, WidgetType> = { right: 'weather', below: 'fleet_kpis', left: 'signal' };
    expect(deriveLayout(lg, 12, 1, (id) => types[id])).toEqual([
      { i: 'left', x: 0, y: 0, w: 1, h: 5 },
      { i: 'right', x: 0, y: 5, w: 1, h: 4 },
      { i: 'below', x: 0, y: 9, w: 1, h: 2 },
    ]);
  });

  it('keeps a widget at its minimum width on a tablet', () => {
    // A 4-wide signal widget (min 2) scales to 2 of 6 columns; a 3-wide plant status (min 4) stays at 4.
    const lg: GridItem[] = [
      { i: 's', x: 0, y: 0, w: 4, h: 3 },
      { i: 't', x: 4, y: 0, w: 3, h: 3 },
    ];
    const types: Record<string, WidgetType> = { s: 'signal', t: 'plant_status' };
    expect(deriveLayout(lg, 12, 6, (id) => types[id]).map((it) => it.w)).toEqual([2, 4]);
  });
});

describe('defaultDashboard', () => {
  it('gives a user with several plants and every permission the whole widget set, without overlaps', () => {
    const d = defaultDashboard([7, 3, 9], all);
    expect(d.widgets.map((w) => w.type).sort()).toEqual(
      [...WIDGET_TYPES].filter((t) => t !== 'signal').sort(),
    );
    for (const bp of BREAKPOINT_NAMES) {
      expect(d.layouts[bp]).toHaveLength(d.widgets.length);
      expect(overlaps(d.layouts[bp])).toBe(false);
      for (const it of d.layouts[bp]) expect(it.x + it.w).toBeLessThanOrEqual(COLS[bp]);
    }
    // Plant widgets start on the first plant of the scope.
    expect(d.widgets.find((w) => w.type === 'plant_power')?.settings.plant_id).toBe(7);
    expect(d.widgets.find((w) => w.type === 'fleet_kpis')?.settings.plant_id).toBeNull();
    expect(d.widgets.find((w) => w.type === 'open_faults')?.settings.plant_id).toBeNull();
  });

  it('leaves out what the user may not view and widens the partner to the whole row', () => {
    const d = defaultDashboard([1, 2], (t) => t !== 'active_alarms' && t !== 'mini_map');
    const types = d.widgets.map((w) => w.type);
    expect(types).not.toContain('active_alarms');
    expect(types).not.toContain('mini_map');
    const status = d.widgets.find((w) => w.type === 'plant_status')!;
    expect(d.layouts.lg.find((it) => it.i === status.id)?.w).toBe(12);
  });

  it('gives a user without plants only the fleet-wide widgets, and no ranking for a single plant', () => {
    expect(defaultDashboard([], all).widgets.map((w) => w.type)).toEqual([
      'fleet_kpis',
      'plant_status',
      'active_alarms',
      'open_faults',
    ]);
    expect(defaultDashboard([5], all).widgets.map((w) => w.type)).not.toContain('yield_ranking');
  });
});

describe('readStoredDashboard', () => {
  it('answers none for nothing saved and unreadable for what is not a dashboard', () => {
    expect(readStoredDashboard(null)).toEqual({ kind: 'none' });
    expect(readStoredDashboard(undefined)).toEqual({ kind: 'none' });
    expect(readStoredDashboard('a layout').kind).toBe('unreadable');
    expect(readStoredDashboard({ widgets: [] }).kind).toBe('unreadable');
    expect(readStoredDashboard([{ i: 'a' }]).kind).toBe('unreadable');
  });

  it('reads back what it wrote, and what it writes stays shallow', () => {
    const d = defaultDashboard([4, 5], all);
    const stored = toStoredDashboard(d);
    expect(stored.version).toBe(LAYOUT_VERSION);
    expect(depth(stored)).toBeLessThan(10);
    const read = readStoredDashboard(JSON.parse(JSON.stringify(stored)));
    expect(read).toEqual({ kind: 'dashboard', dashboard: d, dropped: [], version: LAYOUT_VERSION });
  });

  it('drops widgets of another widget set by name and keeps the rest where they were', () => {
    const read = readStoredDashboard({
      version: LAYOUT_VERSION + 1,
      widgets: [
        { id: 'a', type: 'fleet_kpis', settings: { plant_ids: [2, 3] } },
        { id: 'b', type: 'carbon_ticker', settings: {} },
        {
          id: 'c',
          type: 'signal',
          settings: { plant_id: 2, signal_id: 40, display: 'trend', period: 'week' },
        },
      ],
      layouts: {
        lg: [
          { i: 'a', x: 0, y: 0, w: 12, h: 3 },
          { i: 'b', x: 0, y: 3, w: 6, h: 4 },
          { i: 'c', x: 6, y: 3, w: 6, h: 4 },
        ],
      },
    });
    if (read.kind !== 'dashboard') throw new Error(read.kind);
    expect(read.dropped).toEqual(['carbon_ticker']);
    expect(read.version).toBe(LAYOUT_VERSION + 1);
    expect(read.dashboard.widgets.map((w) => w.id)).toEqual(['a', 'c']);
    expect(read.dashboard.widgets[0]!.settings.plant_ids).toEqual([2, 3]);
    expect(read.dashboard.widgets[1]!.settings).toMatchObject({
      signal_id: 40,
      display: 'trend',
      period: 'week',
    });
    expect(read.dashboard.layouts.lg).toEqual([
      { i: 'a', x: 0, y: 0, w: 12, h: 3 },
      { i: 'c', x: 6, y: 3, w: 6, h: 4 },
    ]);
    // No tablet or phone layout was stored: both are derived from the laptop one.
    expect(read.dashboard.layouts.xs.map((it) => it.i)).toEqual(['a', 'c']);
  });

  it('repairs what it can: bad settings take defaults, grid items are clamped, duplicates and strays go', () => {
    const read = readStoredDashboard({
      version: 0,
      widgets: [
        { id: 'a', type: 'weather', settings: { plant_id: -1, period: 'year', plant_ids: 'all' } },
        { id: 'a', type: 'signal', settings: {} },
        { id: 'b', type: 'open_faults', settings: 'x' },
        { type: 'signal' },
      ],
      layouts: {
        lg: [
          { i: 'a', x: 11, y: 0, w: 1, h: 1 },
          { i: 'ghost', x: 0, y: 0, w: 2, h: 2 },
          { i: 'b', x: 0, y: 'top', w: 2, h: 2 },
        ],
        md: 'none',
      },
    });
    if (read.kind !== 'dashboard') throw new Error(read.kind);
    expect(read.dashboard.widgets.map((w) => [w.id, w.type])).toEqual([
      ['a', 'weather'],
      ['b', 'open_faults'],
    ]);
    // weather offers day and week only; a negative plant id is no plant.
    expect(read.dashboard.widgets[0]!.settings).toMatchObject({
      plant_id: null,
      period: 'day',
      plant_ids: [],
    });
    const { minW, minH } = WIDGETS.weather.size;
    expect(read.dashboard.layouts.lg[0]).toEqual({ i: 'a', x: 12 - minW, y: 0, w: minW, h: minH });
    // b's stored item was broken: it is placed below the others.
    expect(read.dashboard.layouts.lg[1]).toMatchObject({ i: 'b', y: minH });
    for (const bp of BREAKPOINT_NAMES) expect(read.dashboard.layouts[bp]).toHaveLength(2);
  });
});

describe('adding and removing widgets', () => {
  it('adds below everything on every breakpoint, and removes from every breakpoint', () => {
    const d = defaultDashboard([1, 2], all);
    const id = nextWidgetId(d.widgets);
    expect(d.widgets.some((w) => w.id === id)).toBe(false);
    const added = addToLayouts(d.layouts, id, 'signal');
    for (const bp of BREAKPOINT_NAMES) {
      const item = added[bp].find((it) => it.i === id)!;
      expect(item.y).toBe(Math.max(...d.layouts[bp].map((it) => it.y + it.h)));
      expect(overlaps(added[bp])).toBe(false);
    }
    expect(added.xs.find((it) => it.i === id)?.w).toBe(1);
    expect(removeFromLayouts(added, id)).toEqual(d.layouts);
  });

  it('completes a grid that lacks a widget and drops items of widgets that are gone', () => {
    const layouts = completeLayouts(
      [
        { id: 'a', type: 'fleet_kpis' },
        { id: 'b', type: 'mini_map' },
      ],
      {
        lg: [
          { i: 'a', x: 0, y: 0, w: 12, h: 3 },
          { i: 'z', x: 0, y: 3, w: 3, h: 3 },
        ],
        md: [],
        xs: [],
      },
    );
    expect(layouts.lg).toEqual([
      { i: 'a', x: 0, y: 0, w: 12, h: 3 },
      { i: 'b', x: 0, y: 3, w: WIDGETS.mini_map.size.w, h: WIDGETS.mini_map.size.h },
    ]);
    expect(layouts.md.map((it) => it.i)).toEqual(['a', 'b']);
  });
});
