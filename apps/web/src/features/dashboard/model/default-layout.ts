import { COLS, deriveLayout, flowPack, type GridLayouts } from './grid';
import type { Dashboard, Widget } from './stored-layout';
import { defaultSettings, WIDGETS, type WidgetType } from './widgets';

/**
 * The default dashboard's rows on the laptop grid, top to bottom. A row whose partner the user may not
 * have (or that needs a plant the user has none of) leaves its other widget the whole row.
 */
const DEFAULT_ROWS: readonly (readonly WidgetType[])[] = [
  ['fleet_kpis'],
  ['plant_status', 'active_alarms'],
  ['plant_power', 'mini_map'],
  ['monthly_energy', 'yield_ranking'],
  ['weather', 'open_faults'],
];

/** Widgets that show one plant, or compare plants: pointless without a plant, or with a single one. */
const NEEDS_A_PLANT = new Set<WidgetType>(['plant_power', 'monthly_energy', 'weather', 'mini_map']);
const NEEDS_TWO_PLANTS = new Set<WidgetType>(['yield_ranking']);

/**
 * A new user's dashboard, built from their scope: the fleet tiles, status table and alarms, then the
 * first plant's power, energy and weather beside the map, ranking and faults, each only when the user
 * may view its data and has the plants it needs.
 */
export function defaultDashboard(
  plantIds: readonly number[],
  allowed: (type: WidgetType) => boolean,
): Dashboard {
  const firstPlant = plantIds[0] ?? null;
  const widgets: Widget[] = [];
  const sized: { i: string; w: number; h: number }[] = [];
  for (const row of DEFAULT_ROWS) {
    const kept = row.filter(
      (type) =>
        allowed(type) &&
        (!NEEDS_A_PLANT.has(type) || plantIds.length > 0) &&
        (!NEEDS_TWO_PLANTS.has(type) || plantIds.length > 1),
    );
    for (const type of kept) {
      const id = `w${widgets.length + 1}`;
      widgets.push({ id, type, settings: defaultSettings(type, firstPlant) });
      const { w } = WIDGETS[type].size;
      // Alone in its row, a widget takes the row; paired, the two keep their widths (they add up to 12).
      // Both are as tall as the taller, so the next row starts level.
      sized.push({
        i: id,
        w: kept.length === 1 ? COLS.lg : w,
        h: Math.max(...kept.map((t) => WIDGETS[t].size.h)),
      });
    }
  }
  const lg = flowPack(sized, COLS.lg);
  const typeOf = (id: string) => widgets.find((w) => w.id === id)?.type;
  const layouts: GridLayouts = {
    lg,
    md: deriveLayout(lg, COLS.lg, COLS.md, typeOf),
    xs: deriveLayout(lg, COLS.lg, COLS.xs, typeOf),
  };
  return { widgets, layouts };
}
