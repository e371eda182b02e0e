/** The diagram's zoom and pan: screen = diagram × k + (x, y). */
export interface View {
  k: number;
  x: number;
  y: number;
}

export const MIN_ZOOM = 0.05;
export const MAX_ZOOM = 4;
/** Fitting never enlarges beyond this, so a small plant is not drawn huge. */
export const FIT_MAX_ZOOM = 1.25;
const FIT_PADDING_PX = 12;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** The view that shows the whole rectangle centred in a viewport of the given size. */
export function fitView(
  bounds: { minX: number; minY: number; maxX: number; maxY: number },
  widthPx: number,
  heightPx: number,
): View {
  const w = Math.max(bounds.maxX - bounds.minX, 1);
  const h = Math.max(bounds.maxY - bounds.minY, 1);
  const k = clamp(
    Math.min((widthPx - 2 * FIT_PADDING_PX) / w, (heightPx - 2 * FIT_PADDING_PX) / h),
    MIN_ZOOM,
    FIT_MAX_ZOOM,
  );
  return {
    k,
    x: (widthPx - w * k) / 2 - bounds.minX * k,
    y: (heightPx - h * k) / 2 - bounds.minY * k,
  };
}

/** Zooms by `factor` keeping the screen point (px, py) over the same diagram point. */
export function zoomAt(view: View, factor: number, px: number, py: number): View {
  const k = clamp(view.k * factor, MIN_ZOOM, MAX_ZOOM);
  const f = k / view.k;
  return { k, x: px - (px - view.x) * f, y: py - (py - view.y) * f };
}

/** A screen point (relative to the viewport) in diagram units. */
export const toDiagram = (view: View, px: number, py: number) => ({
  x: (px - view.x) / view.k,
  y: (py - view.y) / view.k,
});

/**
 * The viewport's height for its width: tall enough to show the whole diagram fitted to the width (so a
 * phone shows it without empty space), within [minPx, maxPx].
 */
export function viewportHeight(
  bounds: { minX: number; minY: number; maxX: number; maxY: number },
  widthPx: number,
  minPx: number,
  maxPx: number,
): number {
  const w = Math.max(bounds.maxX - bounds.minX, 1);
  const h = Math.max(bounds.maxY - bounds.minY, 1);
  const k = Math.min((widthPx - 2 * FIT_PADDING_PX) / w, FIT_MAX_ZOOM);
  return Math.round(clamp(h * k + 2 * FIT_PADDING_PX, minPx, maxPx));
}
