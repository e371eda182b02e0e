import { WIDGETS, type WidgetType } from './widgets';

/**
 * Grid breakpoints by the grid's own width in px (not the window's: the side menu takes its part):
 * a laptop's grid is 960 px or wider, a tablet's from 560, a phone's below.
 */
export const BREAKPOINTS = { lg: 960, md: 560, xs: 0 } as const;
export type BreakpointName = keyof typeof BREAKPOINTS;
export const BREAKPOINT_NAMES = Object.keys(BREAKPOINTS) as BreakpointName[];
export const COLS: Record<BreakpointName, number> = { lg: 12, md: 6, xs: 1 };
/** Height of one grid row in px; widget heights are whole rows. */
export const ROW_HEIGHT_PX = 56;
/** Most rows a widget may be tall: a bound on stored numbers, far above any real use. */
export const MAX_ROWS = 60;

/** One widget's place on one breakpoint's grid, in grid units. */
export interface GridItem {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

export type GridLayouts = Record<BreakpointName, GridItem[]>;

/** A widget id and type, as the grid functions need them. */
export interface PlacedWidget {
  id: string;
  type: WidgetType;
}

/** The widget's smallest size on a grid of `cols` columns (a phone's single column fits every widget). */
export function minSize(type: WidgetType, cols: number): { minW: number; minH: number } {
  const { minW, minH } = WIDGETS[type].size;
  return { minW: Math.min(minW, cols), minH };
}

/** The lowest row below every item: where an added widget goes. */
export function bottomOf(items: readonly GridItem[]): number {
  return items.reduce((max, it) => Math.max(max, it.y + it.h), 0);
}

/**
 * Places widgets of the given sizes left to right, wrapping to a new shelf when a row is full (the shelf
 * as tall as its tallest widget), starting at row `top`.
 */
export function flowPack(
  sized: readonly { i: string; w: number; h: number }[],
  cols: number,
  top = 0,
): GridItem[] {
  const out: GridItem[] = [];
  let x = 0;
  let y = top;
  let shelf = 0;
  for (const s of sized) {
    const w = Math.min(s.w, cols);
    if (x + w > cols) {
      y += shelf;
      x = 0;
      shelf = 0;
    }
    out.push({ i: s.i, x, y, w, h: s.h });
    x += w;
    shelf = Math.max(shelf, s.h);
  }
  return out;
}

/**
 * A narrower grid's layout made from a wider one: the widgets in reading order (row, then column), their
 * widths scaled to the column count (at least their minimum), flowed into rows. A phone gets one column
 * of full-width widgets in the laptop's reading order.
 */
export function deriveLayout(
  from: readonly GridItem[],
  fromCols: number,
  cols: number,
  typeOf: (id: string) => WidgetType | undefined,
): GridItem[] {
  const ordered = [...from].sort((a, b) => a.y - b.y || a.x - b.x);
  return flowPack(
    ordered.flatMap((it) => {
      const type = typeOf(it.i);
      if (!type) return [];
      const { minW } = minSize(type, cols);
      const w = Math.max(minW, Math.min(cols, Math.round((it.w * cols) / fromCols)));
      return [{ i: it.i, w, h: it.h }];
    }),
    cols,
  );
}

/**
 * Every breakpoint's layout holding exactly the widgets, no more: items of unknown widgets are dropped,
 * items are clamped into the grid and to the widget's minimum size, and a widget missing from a
 * breakpoint is placed below the others there. A breakpoint with no stored items at all is derived from
 * the laptop layout.
 */
export function completeLayouts(
  widgets: readonly PlacedWidget[],
  stored: Partial<Record<BreakpointName, readonly GridItem[]>>,
): GridLayouts {
  const typeById = new Map(widgets.map((w) => [w.id, w.type]));
  const clampAll = (bp: BreakpointName): GridItem[] => {
    const cols = COLS[bp];
    const seen = new Set<string>();
    const kept: GridItem[] = [];
    for (const it of stored[bp] ?? []) {
      const type = typeById.get(it.i);
      if (!type || seen.has(it.i)) continue;
      seen.add(it.i);
      const { minW, minH } = minSize(type, cols);
      const w = Math.max(minW, Math.min(cols, it.w));
      const h = Math.max(minH, Math.min(MAX_ROWS, it.h));
      kept.push({ i: it.i, x: Math.max(0, Math.min(cols - w, it.x)), y: Math.max(0, it.y), w, h });
    }
    const missing = widgets.filter((w) => !seen.has(w.id));
    const placed = flowPack(
      missing.map((m) => {
        const { w, h } = WIDGETS[m.type].size;
        return { i: m.id, w: Math.max(minSize(m.type, cols).minW, Math.round((w * cols) / COLS.lg)), h };
      }),
      cols,
      bottomOf(kept),
    );
    return [...kept, ...placed];
  };
  const lg = clampAll('lg');
  const typeOf = (id: string) => typeById.get(id);
  const layouts = { lg } as GridLayouts;
  for (const bp of BREAKPOINT_NAMES) {
    if (bp === 'lg') continue;
    layouts[bp] = (stored[bp]?.length ?? 0) > 0 ? clampAll(bp) : deriveLayout(lg, COLS.lg, COLS[bp], typeOf);
  }
  return layouts;
}

/** The layouts with a widget of the type added below everything on every breakpoint. */
export function addToLayouts(layouts: GridLayouts, id: string, type: WidgetType): GridLayouts {
  const { w, h } = WIDGETS[type].size;
  const next = {} as GridLayouts;
  for (const bp of BREAKPOINT_NAMES) {
    const cols = COLS[bp];
    const width = Math.max(minSize(type, cols).minW, Math.min(cols, Math.round((w * cols) / COLS.lg)));
    next[bp] = [...layouts[bp], { i: id, x: 0, y: bottomOf(layouts[bp]), w: width, h }];
  }
  return next;
}

/** The layouts without the widget. */
export function removeFromLayouts(layouts: GridLayouts, id: string): GridLayouts {
  const next = {} as GridLayouts;
  for (const bp of BREAKPOINT_NAMES) next[bp] = layouts[bp].filter((it) => it.i !== id);
  return next;
}

/** The breakpoint of a grid this wide (px). */
export function breakpointOf(widthPx: number): BreakpointName {
  return BREAKPOINT_NAMES.find((bp) => widthPx >= BREAKPOINTS[bp]) ?? 'xs';
}

/** Gap between widgets, px (both directions). */
export const MARGIN_PX = 12;

/** Pixel height of a widget `rows` tall: its rows and the gaps between them. */
export const heightPx = (rows: number): number => rows * ROW_HEIGHT_PX + Math.max(0, rows - 1) * MARGIN_PX;
