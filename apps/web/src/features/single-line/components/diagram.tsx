import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import Button from 'antd/es/button';
import ExpandOutlined from '@ant-design/icons/ExpandOutlined';
import ZoomInOutlined from '@ant-design/icons/ZoomInOutlined';
import ZoomOutOutlined from '@ant-design/icons/ZoomOutOutlined';
import { useTranslation } from 'react-i18next';
import type { OperatingStatus, Topology, TopologyNode } from '@solar/shared';
import { formatNumber } from '../../../lib/format';
import { prefixedKey } from '../../../lib/i18n-keys';
import { shapeOf, type AutoLayout, type Box } from '../layout/elk-graph';
import {
  boundsOf,
  busbarSpans,
  mergePositions,
  movedNodes,
  routeEdges,
  type Drafts,
  type Point,
} from '../layout/positions';
import { symbolOf } from '../layout/symbol-of';
import { fitView, toDiagram, viewportHeight, zoomAt, type View } from '../layout/viewport';
import { DeviceSymbol, STATUS_COLOUR, StatusGlyph } from './symbols';

export interface DiagramProps {
  topology: Topology;
  auto: AutoLayout;
  drafts: Drafts;
  /** Nodes can be dragged (pointer) or moved with the arrow keys instead of opened. */
  editing: boolean;
  statusOf: ReadonlyMap<number, OperatingStatus>;
  /** Live power by device id, in kW. */
  powerKwOf: ReadonlyMap<number, number>;
  onMove: (nodeId: string, position: Point) => void;
  onOpen: (node: TopologyNode) => void;
}

/** Pointer travel (px) after which a press is a drag, not a click. */
const DRAG_THRESHOLD_PX = 4;
const NO_DRAFTS: Drafts = new Map();
const BUTTON_ZOOM = 1.4;
/** Arrow-key steps (diagram px) when moving a node with the keyboard; Shift moves further. */
const KEY_STEP_PX = 10;
const KEY_STEP_LARGE_PX = 50;
const NAME_MAX_CHARS = 20;
const MIN_HEIGHT_PX = 260;

const short = (name: string) =>
  name.length > NAME_MAX_CHARS ? `${name.slice(0, NAME_MAX_CHARS - 1)}…` : name;
const pathOf = (points: readonly { x: number; y: number }[]) =>
  points.map((p, i) => `${i ? 'L' : 'M'}${p.x} ${p.y}`).join(' ');

type Gesture =
  | { kind: 'pan'; travelPx: number }
  | { kind: 'node'; nodeId: string; offsetX: number; offsetY: number; travelPx: number }
  | { kind: 'pinch'; distPx: number; midX: number; midY: number };

/**
 * The single-line diagram as SVG: automatic layout merged with saved and dragged positions, orthogonal
 * edges, IEC-style symbols, each device with its live power and status. Wheel, pinch and buttons zoom;
 * dragging the background pans; in edit mode dragging a node moves it.
 */
export function Diagram({
  topology,
  auto,
  drafts,
  editing,
  statusOf,
  powerKwOf,
  onMove,
  onOpen,
}: DiagramProps) {
  const { t, i18n } = useTranslation();
  const wrapRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);

  const boxes = useMemo(() => mergePositions(topology, auto, drafts), [topology, auto, drafts]);
  const spans = useMemo(() => busbarSpans(topology, boxes), [topology, boxes]);
  const routes = useMemo(
    () => routeEdges(topology.edges, boxes, spans, auto, movedNodes(boxes, auto)),
    [topology.edges, boxes, spans, auto],
  );
  // The viewport's height follows the automatic layout only, so dragging a node never resizes it.
  const autoBounds = useMemo(
    () => boundsOf(auto.boxes, busbarSpans(topology, auto.boxes)),
    [auto.boxes, topology],
  );

  const [widthPx, setWidthPx] = useState(0);
  useEffect(() => {
    const el = wrapRef.current;
    if (!el) return undefined;
    const observer = new ResizeObserver(([entry]) => setWidthPx(Math.round(entry!.contentRect.width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const heightPx =
    widthPx > 0
      ? viewportHeight(autoBounds, widthPx, MIN_HEIGHT_PX, Math.max(MIN_HEIGHT_PX, window.innerHeight * 0.72))
      : MIN_HEIGHT_PX;

  // The view is fitted to the saved layout until the user zooms, pans or drags; a new plant or graph
  // (another shape) fits again.
  const shape = `${topology.plant_id}|${shapeOf(topology)}`;
  const savedBounds = useMemo(() => {
    const saved = mergePositions(topology, auto, NO_DRAFTS);
    return boundsOf(saved, busbarSpans(topology, saved));
  }, [topology, auto]);
  const fitted = useMemo(
    () => (widthPx > 0 ? fitView(savedBounds, widthPx, heightPx) : { k: 1, x: 0, y: 0 }),
    [savedBounds, widthPx, heightPx],
  );
  const [manual, setManual] = useState<{ shape: string; view: View } | null>(null);
  const view = manual?.shape === shape ? manual.view : fitted;
  const current = useRef({ shape, view });
  useEffect(() => {
    current.current = { shape, view };
  });
  /** Changes the view from the one shown now (also from listeners registered once). */
  const changeView = (next: (v: View) => View) =>
    setManual(() => ({ shape: current.current.shape, view: next(current.current.view) }));

  const fit = () => setManual(null);
  const zoomBy = (factor: number) => changeView((v) => zoomAt(v, factor, widthPx / 2, heightPx / 2));

  // Wheel zoom needs a non-passive listener to keep the page from scrolling meanwhile.
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return undefined;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const rect = svg.getBoundingClientRect();
      const { shape: s, view: v } = current.current;
      setManual({
        shape: s,
        view: zoomAt(v, Math.exp(-e.deltaY * 0.0015), e.clientX - rect.left, e.clientY - rect.top),
      });
    };
    svg.addEventListener('wheel', onWheel, { passive: false });
    return () => svg.removeEventListener('wheel', onWheel);
  }, []);

  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<Gesture | null>(null);
  const suppressClick = useRef(false);
  const local = (e: PointerEvent) => {
    const rect = svgRef.current!.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  };
  const pinchOf = (): Gesture => {
    const [a, b] = [...pointers.current.values()] as [{ x: number; y: number }, { x: number; y: number }];
    return {
      kind: 'pinch',
      distPx: Math.hypot(a.x - b.x, a.y - b.y),
      midX: (a.x + b.x) / 2,
      midY: (a.y + b.y) / 2,
    };
  };

  const onPointerDown = (e: PointerEvent<SVGSVGElement>) => {
    if (e.button !== 0 && e.pointerType === 'mouse') return;
    const p = local(e);
    pointers.current.set(e.pointerId, p);
    suppressClick.current = false;
    if (pointers.current.size === 2) {
      gesture.current = pinchOf();
      return;
    }
    const nodeId = (e.target as Element).closest('[data-node-id]')?.getAttribute('data-node-id');
    const box = nodeId ? boxes.get(nodeId) : undefined;
    if (editing && nodeId && box) {
      const d = toDiagram(view, p.x, p.y);
      gesture.current = { kind: 'node', nodeId, offsetX: d.x - box.cx, offsetY: d.y - box.cy, travelPx: 0 };
    } else gesture.current = { kind: 'pan', travelPx: 0 };
  };

  const onPointerMove = (e: PointerEvent<SVGSVGElement>) => {
    const before = pointers.current.get(e.pointerId);
    const g = gesture.current;
    if (!before || !g) return;
    const p = local(e);
    pointers.current.set(e.pointerId, p);
    if (g.kind === 'pinch') {
      if (pointers.current.size < 2) return;
      const next = pinchOf() as Extract<Gesture, { kind: 'pinch' }>;
      changeView((v) =>
        zoomAt(
          { ...v, x: v.x + next.midX - g.midX, y: v.y + next.midY - g.midY },
          g.distPx > 0 ? next.distPx / g.distPx : 1,
          next.midX,
          next.midY,
        ),
      );
      gesture.current = next;
      return;
    }
    g.travelPx += Math.abs(p.x - before.x) + Math.abs(p.y - before.y);
    if (g.travelPx < DRAG_THRESHOLD_PX) return;
    // Captured only once it is a drag, so that a plain click still reaches the element under it.
    if (!svgRef.current!.hasPointerCapture(e.pointerId)) svgRef.current!.setPointerCapture(e.pointerId);
    suppressClick.current = true;
    if (g.kind === 'pan') {
      changeView((v) => ({ ...v, x: v.x + p.x - before.x, y: v.y + p.y - before.y }));
    } else {
      // Pinned while dragging, so the view does not follow the node around.
      if (manual?.shape !== shape) setManual({ shape, view });
      const d = toDiagram(view, p.x, p.y);
      onMove(g.nodeId, { x_px: Math.round(d.x - g.offsetX), y_px: Math.round(d.y - g.offsetY) });
    }
  };

  const onPointerEnd = (e: PointerEvent<SVGSVGElement>) => {
    pointers.current.delete(e.pointerId);
    if (svgRef.current?.hasPointerCapture(e.pointerId)) svgRef.current.releasePointerCapture(e.pointerId);
    gesture.current = pointers.current.size === 1 ? { kind: 'pan', travelPx: DRAG_THRESHOLD_PX } : null;
  };

  const onNodeKey = (e: KeyboardEvent, node: TopologyNode, box: Box) => {
    if (!editing) {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        onOpen(node);
      }
      return;
    }
    const step = e.shiftKey ? KEY_STEP_LARGE_PX : KEY_STEP_PX;
    const delta: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const d = delta[e.key];
    if (!d) return;
    e.preventDefault();
    onMove(node.id, { x_px: box.cx + d[0], y_px: box.cy + d[1] });
  };

  const language = i18n.language;
  /**
   * The element's name: its visible texts in their order (name, power, status) then its type, so that the
   * name a screen reader announces starts with what is shown (WCAG 2.5.3 label in name).
   */
  const powerText = (power: number | undefined) =>
    power === undefined ? '–' : `${formatNumber(power, language, 1)} kW`;

  /**
   * A node's accessible name starts with the text it shows, in the same order (short name, power, status),
   * so speech input can name what the eye reads (WCAG 2.5.3, label in name); the full name and the device
   * type follow.
   */
  const label = (node: TopologyNode) => {
    const status = node.device_id === null ? undefined : statusOf.get(node.device_id);
    const power = node.device_id === null ? undefined : powerKwOf.get(node.device_id);
    const name = node.name ?? '';
    return [
      short(name),
      powerText(power),
      status ? t(prefixedKey('plantView.status', status)) : t('singleLine.statusUnknown'),
      short(name) === name ? null : name,
      node.device_type ? t(prefixedKey('devices.types', node.device_type)) : null,
    ]
      .filter((part) => part !== null)
      .join(', ');
  };
  return (
    <div
      ref={wrapRef}
      className={`sl-canvas${editing ? ' sl-editing' : ''}`}
      style={{ height: heightPx }}
      data-testid="sl-canvas"
    >
      <svg
        ref={svgRef}
        className="sl-svg"
        width="100%"
        height={heightPx}
        role="group"
        aria-label={t('singleLine.diagramLabel', { plant: topology.plant_name })}
        aria-describedby={editing ? 'sl-edit-hint' : undefined}
        data-testid="sl-diagram"
        data-zoom={view.k.toFixed(3)}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
      >
        <g transform={`translate(${view.x} ${view.y}) scale(${view.k})`}>
          {topology.edges.map((edge) => {
            const points = routes.get(edge.id);
            return points ? (
              <path key={edge.id} className={`sl-edge sl-edge-${edge.kind}`} d={pathOf(points)} />
            ) : null;
          })}
          {[...spans].map(([id, s]) => (
            <g key={id} data-node-id={id} className="sl-busbar" data-testid="sl-busbar">
              <line className="sl-busbar-hit" x1={s.x1} y1={s.y} x2={s.x2} y2={s.y} />
              <line className="sl-busbar-line" x1={s.x1} y1={s.y} x2={s.x2} y2={s.y} />
            </g>
          ))}
          {topology.nodes.map((node) => {
            const box = boxes.get(node.id);
            if (!box || node.kind === 'busbar') return null;
            const x = box.cx - box.widthPx / 2;
            const y = box.cy - box.heightPx / 2;
            if (node.kind === 'grid')
              return (
                <g
                  key={node.id}
                  data-node-id={node.id}
                  className="sl-node sl-grid"
                  transform={`translate(${x} ${y})`}
                  data-testid="sl-grid"
                >
                  <rect className="sl-grid-box" width={box.widthPx} height={box.heightPx} rx={8} />
                  <g transform={`translate(${box.widthPx / 2} 32)`}>
                    <DeviceSymbol kind="grid" />
                  </g>
                  <text className="sl-node-name" x={box.widthPx / 2} y={74} textAnchor="middle">
                    {t('singleLine.grid')}
                  </text>
                </g>
              );
            const status = node.device_id === null ? undefined : statusOf.get(node.device_id);
            const power = node.device_id === null ? undefined : powerKwOf.get(node.device_id);
            const auxiliary = ['weather_station', 'camera', 'data_logger'].includes(node.device_type ?? '');
            return (
              <g
                key={node.id}
                data-node-id={node.id}
                data-device-id={node.device_id ?? undefined}
                data-device-type={node.device_type ?? undefined}
                data-status={status ?? 'unknown'}
                className={`sl-node sl-device${auxiliary ? ' sl-auxiliary' : ''}${node.is_active === false ? ' sl-inactive' : ''}`}
                transform={`translate(${x} ${y})`}
                role="button"
                tabIndex={0}
                aria-label={label(node)}
                onClick={() => {
                  if (!editing && !suppressClick.current) onOpen(node);
                }}
                onKeyDown={(e) => onNodeKey(e, node, box)}
              >
                <rect
                  className="sl-node-box"
                  width={box.widthPx}
                  height={box.heightPx}
                  rx={8}
                  style={{ stroke: status ? STATUS_COLOUR[status] : undefined }}
                />
                <g transform={`translate(${box.widthPx / 2} 30)`}>
                  <DeviceSymbol kind={symbolOf(node)} />
                </g>
                {/* The spaces between the <text>s keep the visible words apart ("INV-01 140 kW", not
                    "INV-01140 kW") for checks of the label against what is shown (axe joins the text as is). */}
                <text className="sl-node-name" x={box.widthPx / 2} y={68} textAnchor="middle">
                  {short(node.name ?? '')}
                </text>{' '}
                <text
                  className="sl-node-power"
                  x={box.widthPx / 2}
                  y={85}
                  textAnchor="middle"
                  data-testid="sl-power"
                >
                  {powerText(power)}
                </text>{' '}
                {status && (
                  <g transform={`translate(0 ${box.heightPx - 13})`}>
                    <text className="sl-node-status" x={box.widthPx / 2 + 8} y={4} textAnchor="middle">
                      {t(prefixedKey('plantView.status', status))}
                    </text>
                    <g
                      transform={`translate(${box.widthPx / 2 - 3 - statusHalfWidth(t(prefixedKey('plantView.status', status)))} 0)`}
                    >
                      <StatusGlyph status={status} />
                    </g>
                  </g>
                )}
              </g>
            );
          })}
        </g>
      </svg>
      <div className="sl-zoom">
        <Button
          size="small"
          icon={<ZoomInOutlined />}
          aria-label={t('singleLine.zoomIn')}
          title={t('singleLine.zoomIn')}
          data-testid="sl-zoom-in"
          onClick={() => zoomBy(BUTTON_ZOOM)}
        />
        <Button
          size="small"
          icon={<ZoomOutOutlined />}
          aria-label={t('singleLine.zoomOut')}
          title={t('singleLine.zoomOut')}
          data-testid="sl-zoom-out"
          onClick={() => zoomBy(1 / BUTTON_ZOOM)}
        />
        <Button
          size="small"
          icon={<ExpandOutlined />}
          aria-label={t('singleLine.fit')}
          title={t('singleLine.fit')}
          data-testid="sl-fit"
          onClick={fit}
        />
      </div>
    </div>
  );
}

/** Half the drawn width of a status word (11 px sans-serif, ~0.58 em per character), to put its glyph beside it. */
const statusHalfWidth = (word: string) => (word.length * 11 * 0.58) / 2;
