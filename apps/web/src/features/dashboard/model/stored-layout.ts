import { z } from 'zod';
import {
  BREAKPOINT_NAMES,
  completeLayouts,
  MAX_ROWS,
  type BreakpointName,
  type GridItem,
  type GridLayouts,
} from './grid';
import {
  defaultSettings,
  LAYOUT_VERSION,
  SIGNAL_DISPLAYS,
  WIDGET_PERIODS,
  WIDGET_TYPES,
  WIDGETS,
  type WidgetSettings,
  type WidgetType,
} from './widgets';

/** One widget of a dashboard: its id in the grid, its type and its own settings. */
export interface Widget {
  id: string;
  type: WidgetType;
  settings: WidgetSettings;
}

export interface Dashboard {
  widgets: Widget[];
  layouts: GridLayouts;
}

/** Most widgets a dashboard holds: bounds what a stored payload may make the page draw. */
export const MAX_WIDGETS = 40;
/** Most plants a widget's plant filter keeps. */
const MAX_PLANT_FILTER = 500;

const id = () => z.number().int().positive();

/**
 * A widget's stored settings, field by field: a field that is missing or not understood takes its
 * default instead of failing the widget, so a settings change between versions costs only that field.
 */
const storedSettings = z
  .object({
    plant_ids: z.array(id()).max(MAX_PLANT_FILTER).catch([]),
    plant_id: id().nullable().catch(null),
    signal_id: id().nullable().catch(null),
    period: z.enum(WIDGET_PERIODS).optional().catch(undefined),
    display: z.enum(SIGNAL_DISPLAYS).catch('gauge'),
  })
  .catch({ plant_ids: [], plant_id: null, signal_id: null, period: undefined, display: 'gauge' });

const storedWidget = z.object({
  id: z.string().min(1).max(40),
  type: z.string().max(80),
  settings: z.unknown(),
});

const gridUnit = (max: number) => z.number().int().min(0).max(max);
const storedItem = z.object({
  i: z.string().min(1).max(40),
  x: gridUnit(100),
  y: gridUnit(10_000),
  w: gridUnit(100).min(1),
  h: gridUnit(MAX_ROWS).min(1),
});

const storedPayload = z.object({
  version: z.number().int().min(0),
  widgets: z.array(z.unknown()).max(MAX_WIDGETS * 4),
  layouts: z.record(z.string(), z.unknown()).catch({}),
});

/** What a stored payload turned out to be. */
export type StoredDashboard =
  /** Nothing saved: the page builds the default from the user's scope. */
  | { kind: 'none' }
  /** Saved, but not a dashboard this console can read at all: the default is shown instead. */
  | { kind: 'unreadable' }
  /**
   * A dashboard; `dropped` names the stored widget types this widget set does not have (from an older
   * or newer set), which were left out, and `version` is the set that saved it.
   */
  | { kind: 'dashboard'; dashboard: Dashboard; dropped: string[]; version: number };

function settingsOf(type: WidgetType, raw: unknown): WidgetSettings {
  const parsed = storedSettings.parse(raw ?? {});
  const def = WIDGETS[type];
  const base = defaultSettings(type);
  return {
    plant_ids: def.fields.includes('plants') ? parsed.plant_ids : base.plant_ids,
    plant_id: def.fields.includes('plant') ? parsed.plant_id : null,
    signal_id: def.fields.includes('signal') ? parsed.signal_id : null,
    period: parsed.period && def.periods.includes(parsed.period) ? parsed.period : base.period,
    display: parsed.display,
  };
}

function itemsOf(raw: unknown): GridItem[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((it) => {
    const parsed = storedItem.safeParse(it);
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * Reads the `data` of GET users/dashboard. Payloads of every version share one shape ({ version,
 * widgets, layouts }); widgets of a type this set lacks are dropped and named, broken widgets and grid
 * items are skipped, duplicate ids keep the first, and the grid is completed for every breakpoint.
 */
export function readStoredDashboard(data: unknown): StoredDashboard {
  if (data === null || data === undefined) return { kind: 'none' };
  const payload = storedPayload.safeParse(data);
  if (!payload.success) return { kind: 'unreadable' };
  const known = new Set<string>(WIDGET_TYPES);
  const widgets: Widget[] = [];
  const dropped: string[] = [];
  const ids = new Set<string>();
  for (const raw of payload.data.widgets) {
    const parsed = storedWidget.safeParse(raw);
    if (!parsed.success || ids.has(parsed.data.id)) continue;
    if (!known.has(parsed.data.type)) {
      dropped.push(parsed.data.type);
      continue;
    }
    if (widgets.length >= MAX_WIDGETS) continue;
    const type = parsed.data.type as WidgetType;
    ids.add(parsed.data.id);
    widgets.push({ id: parsed.data.id, type, settings: settingsOf(type, parsed.data.settings) });
  }
  const stored: Partial<Record<BreakpointName, GridItem[]>> = {};
  for (const bp of BREAKPOINT_NAMES) stored[bp] = itemsOf(payload.data.layouts[bp]);
  return {
    kind: 'dashboard',
    dashboard: { widgets, layouts: completeLayouts(widgets, stored) },
    dropped,
    version: payload.data.version,
  };
}

/** The `data` POST users/dashboard stores: the current version, the widgets and each breakpoint's grid. */
export function toStoredDashboard(dashboard: Dashboard): {
  version: number;
  widgets: { id: string; type: WidgetType; settings: WidgetSettings }[];
  layouts: Record<BreakpointName, GridItem[]>;
} {
  const layouts = {} as Record<BreakpointName, GridItem[]>;
  // Only the five numbers: the grid library adds its own flags (moved, static) to the items.
  for (const bp of BREAKPOINT_NAMES)
    layouts[bp] = dashboard.layouts[bp].map(({ i, x, y, w, h }) => ({ i, x, y, w, h }));
  return {
    version: LAYOUT_VERSION,
    widgets: dashboard.widgets.map((w) => ({ id: w.id, type: w.type, settings: w.settings })),
    layouts,
  };
}

/** An id no widget of the dashboard has yet (`w1`, `w2`, …). */
export function nextWidgetId(widgets: readonly { id: string }[]): string {
  const taken = new Set(widgets.map((w) => w.id));
  let n = widgets.length + 1;
  while (taken.has(`w${n}`)) n++;
  return `w${n}`;
}
