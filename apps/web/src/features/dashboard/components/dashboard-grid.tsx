import { useMemo } from 'react';
import { ResponsiveGridLayout, useContainerWidth, type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import {
  BREAKPOINT_NAMES,
  BREAKPOINTS,
  breakpointOf,
  COLS,
  heightPx,
  MARGIN_PX,
  minSize,
  ROW_HEIGHT_PX,
  type BreakpointName,
  type GridItem,
  type GridLayouts,
} from '../model/grid';
import type { Widget } from '../model/stored-layout';
import { DRAG_HANDLE_CLASS } from './widget-frame';

/** Height of a small card's title bar and its body's padding, px: what a widget body has less than its cell. */
const CARD_CHROME_PX = 38 + 2 * 12;

interface DashboardGridProps {
  widgets: readonly Widget[];
  layouts: GridLayouts;
  editing: boolean;
  onLayouts: (layouts: GridLayouts) => void;
  /** Draws a widget with the height its body has. */
  render: (widget: Widget, bodyHeightPx: number) => React.ReactNode;
}

/** Only the five numbers of each item (the grid library adds flags of its own). */
const plain = (items: Layout): GridItem[] => items.map(({ i, x, y, w, h }) => ({ i, x, y, w, h }));

/**
 * The responsive widget grid: 12 columns on a laptop, 6 on a tablet, one on a phone. In edit mode the
 * widgets are dragged by their title bars and resized from their corner; the grid reports each change.
 */
export function DashboardGrid({ widgets, layouts, editing, onLayouts, render }: DashboardGridProps) {
  const { width, containerRef, mounted } = useContainerWidth({ measureBeforeMount: true });
  const breakpoint = breakpointOf(width);
  const typeById = useMemo(() => new Map(widgets.map((w) => [w.id, w.type])), [widgets]);
  // Minimum sizes travel with the items, so the grid refuses to resize a widget below them.
  const withMinimums = useMemo(() => {
    const out = {} as Record<BreakpointName, (GridItem & { minW: number; minH: number })[]>;
    for (const bp of BREAKPOINT_NAMES)
      out[bp] = layouts[bp].map((it) => {
        const type = typeById.get(it.i);
        return { ...it, ...(type ? minSize(type, COLS[bp]) : { minW: 1, minH: 1 }) };
      });
    return out;
  }, [layouts, typeById]);
  const rowsOf = (id: string) => layouts[breakpoint].find((it) => it.i === id)?.h ?? 4;

  return (
    <div
      ref={containerRef}
      className="dashboard-grid"
      data-testid="dashboard-grid"
      data-breakpoint={breakpoint}
    >
      {mounted && (
        <ResponsiveGridLayout
          width={width}
          breakpoints={BREAKPOINTS}
          cols={COLS}
          layouts={withMinimums}
          rowHeight={ROW_HEIGHT_PX}
          margin={[MARGIN_PX, MARGIN_PX]}
          containerPadding={[0, 0]}
          dragConfig={{ enabled: editing, handle: `.${DRAG_HANDLE_CLASS}`, threshold: 3, bounded: false }}
          resizeConfig={{ enabled: editing, handles: ['se'] }}
          onLayoutChange={(_, all) => {
            if (!editing) return;
            const next = { ...layouts };
            for (const bp of BREAKPOINT_NAMES) {
              const items = all[bp];
              if (items) next[bp] = plain(items);
            }
            onLayouts(next);
          }}
          // Leaflet measures its box on window resizes only: tell a resized mini map.
          onResizeStop={() => window.dispatchEvent(new Event('resize'))}
        >
          {widgets.map((w) => {
            const item = layouts[breakpoint].find((it) => it.i === w.id);
            return (
              <div
                key={w.id}
                className="dashboard-item"
                data-testid={`widget-${w.id}`}
                data-widget-type={w.type}
                data-grid-x={item?.x}
                data-grid-y={item?.y}
                data-grid-w={item?.w}
                data-grid-h={item?.h}
              >
                {render(w, heightPx(rowsOf(w.id)) - CARD_CHROME_PX)}
              </div>
            );
          })}
        </ResponsiveGridLayout>
      )}
    </div>
  );
}
