import type { Page } from '@solar/shared';

/**
 * The widget set. A stored layout names its widgets by these types; a type missing here (from an older
 * or newer set) is dropped on load with a notice. Adding a type is backwards compatible; renaming or
 * removing one needs a new LAYOUT_VERSION and a migration in stored-layout.ts.
 */
export const WIDGET_TYPES = [
  'fleet_kpis',
  'plant_power',
  'monthly_energy',
  'plant_status',
  'active_alarms',
  'mini_map',
  'weather',
  'signal',
  'yield_ranking',
  'open_faults',
] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];

/** Version of the widget set and payload shape that this console writes. */
export const LAYOUT_VERSION = 1;

/** Periods a widget may offer; each type lists the ones it can draw. */
export const WIDGET_PERIODS = ['day', 'week', 'month', 'year'] as const;
export type WidgetPeriod = (typeof WIDGET_PERIODS)[number];

export const SIGNAL_DISPLAYS = ['gauge', 'trend'] as const;
export type SignalDisplay = (typeof SIGNAL_DISPLAYS)[number];

/** The settings a widget may carry; each type uses the fields its definition names. */
export interface WidgetSettings {
  /** Plants the widget covers; empty means every plant in the user's scope. */
  plant_ids: number[];
  /** The one plant of a plant widget; null until chosen (the default layout picks the first plant). */
  plant_id: number | null;
  signal_id: number | null;
  period: WidgetPeriod;
  display: SignalDisplay;
}

export type SettingField = 'plants' | 'plant' | 'signal' | 'period' | 'display';

export interface WidgetSize {
  w: number;
  h: number;
  minW: number;
  minH: number;
}

export interface WidgetDefinition {
  /** Size on the 12-column laptop grid when added. */
  size: WidgetSize;
  /** Settings the widget's form shows. */
  fields: readonly SettingField[];
  /** Periods offered, the first being the default; empty for widgets without one. */
  periods: readonly WidgetPeriod[];
  /** The widget's data needs view on any one of these pages (the server refuses the calls otherwise). */
  pages: readonly Page[];
}

/** Pages whose view opens GET plants/overview (the server's route says so). */
const OVERVIEW_PAGES: readonly Page[] = ['plant', 'map', 'single_line'];

export const WIDGETS: Record<WidgetType, WidgetDefinition> = {
  fleet_kpis: {
    size: { w: 12, h: 3, minW: 3, minH: 3 },
    fields: ['plants'],
    periods: [],
    pages: OVERVIEW_PAGES,
  },
  plant_power: {
    size: { w: 8, h: 6, minW: 3, minH: 4 },
    fields: ['plant'],
    periods: [],
    pages: ['plant'],
  },
  monthly_energy: {
    size: { w: 6, h: 6, minW: 3, minH: 4 },
    fields: ['plant'],
    periods: [],
    pages: ['plant'],
  },
  plant_status: {
    size: { w: 8, h: 6, minW: 4, minH: 3 },
    fields: ['plants'],
    periods: [],
    pages: OVERVIEW_PAGES,
  },
  active_alarms: {
    size: { w: 4, h: 6, minW: 3, minH: 3 },
    fields: ['plants'],
    periods: [],
    pages: ['alarm'],
  },
  mini_map: {
    size: { w: 4, h: 6, minW: 3, minH: 4 },
    fields: ['plants'],
    periods: [],
    pages: ['map'],
  },
  weather: {
    size: { w: 6, h: 5, minW: 3, minH: 4 },
    fields: ['plant', 'period'],
    periods: ['day', 'week'],
    pages: ['dashboard'],
  },
  signal: {
    size: { w: 4, h: 5, minW: 2, minH: 3 },
    fields: ['plant', 'signal', 'display', 'period'],
    periods: ['day', 'week', 'month'],
    pages: ['dashboard'],
  },
  yield_ranking: {
    size: { w: 6, h: 6, minW: 3, minH: 4 },
    fields: ['plants', 'period'],
    periods: ['day', 'month', 'year'],
    pages: ['plant'],
  },
  open_faults: {
    size: { w: 6, h: 5, minW: 3, minH: 3 },
    fields: ['plant'],
    periods: [],
    pages: ['fault'],
  },
};

/** Settings of a new widget of the type. */
export function defaultSettings(type: WidgetType, plantId: number | null = null): WidgetSettings {
  const def = WIDGETS[type];
  return {
    plant_ids: [],
    // Open faults cover the whole scope until the user narrows them to a plant.
    plant_id: def.fields.includes('plant') && type !== 'open_faults' ? plantId : null,
    signal_id: null,
    period: def.periods[0] ?? 'day',
    display: 'gauge',
  };
}

/** Whether the user may have the widget: view on one of the pages its data comes from. */
export function widgetAllowed(type: WidgetType, canView: (page: Page) => boolean): boolean {
  return WIDGETS[type].pages.some(canView);
}
