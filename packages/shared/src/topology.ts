import { z } from 'zod';
import { DEVICE_TYPES } from './devices';
import { V } from './validation';

/**
 * A plant's electrical single-line graph (GET plants/{id}/topology): the grid connection, busbar junctions
 * and every device, with edges from the grid towards the string boxes.
 * - `grid`: the point of connection to the utility grid, one per plant, id `grid`.
 * - `busbar`: a junction drawn where one node feeds several (`busbar:<parent node id>`).
 * - `device`: a device of the plant, id `device:<device id>`.
 */
export const TOPOLOGY_NODE_KINDS = ['grid', 'busbar', 'device'] as const;
export type TopologyNodeKind = (typeof TOPOLOGY_NODE_KINDS)[number];

/** `power`: on the energy path; `auxiliary`: a weather station, camera or logger attached to a device. */
export const TOPOLOGY_EDGE_KINDS = ['power', 'auxiliary'] as const;

/** Diagram coordinates in SVG user units (px), as dragged and saved on the single-line page. */
export const topologyPosition = z.object({ x_px: z.number(), y_px: z.number() });

export const topologyNodeSchema = z.object({
  id: z.string(),
  kind: z.enum(TOPOLOGY_NODE_KINDS),
  device_id: z.number().int().nullable(),
  device_type: z.enum(DEVICE_TYPES).nullable(),
  /** The device's name; null for the grid and busbars (the console names those in the user's language). */
  name: z.string().nullable(),
  rated_power_kw: z.number().nullable(),
  is_active: z.boolean().nullable(),
  /** The signal of the device's live power (ac_power, active_power or dc_power), for the live push. */
  power_signal_id: z.number().int().nullable(),
  /** The saved position, or null to be laid out automatically. */
  position: topologyPosition.nullable(),
});
export type TopologyNode = z.infer<typeof topologyNodeSchema>;

export const topologyEdgeSchema = z.object({
  id: z.string(),
  /** From the grid side … */
  source: z.string(),
  /** … towards the generator side. */
  target: z.string(),
  kind: z.enum(TOPOLOGY_EDGE_KINDS),
});
export type TopologyEdge = z.infer<typeof topologyEdgeSchema>;

export const topologyAnswer = z.object({
  plant_id: z.number().int(),
  plant_name: z.string(),
  nodes: z.array(topologyNodeSchema),
  edges: z.array(topologyEdgeSchema),
});
export type Topology = z.infer<typeof topologyAnswer>;

/** Far beyond any diagram, so a position is a real number of sane size. */
export const TOPOLOGY_COORDINATE_MAX_PX = 100_000;
export const TOPOLOGY_POSITIONS_MAX = 2_000;

const coordinate = () =>
  z
    .number({ error: V.invalidNumber })
    .min(-TOPOLOGY_COORDINATE_MAX_PX, { error: V.outOfRange })
    .max(TOPOLOGY_COORDINATE_MAX_PX, { error: V.outOfRange });

/**
 * POST plants/{id}/topology/positions: positions of dragged nodes, merged into the saved ones; a null
 * position forgets the saved one (the node is laid out automatically again). Node ids must be nodes of
 * the plant's current topology.
 */
export const topologyPositionsBody = z.object({
  positions: z
    .array(
      z.object({
        node_id: z
          .string({ error: V.invalidValue })
          .min(1, { error: V.required })
          .max(100, { error: V.tooLong }),
        position: z.object({ x_px: coordinate(), y_px: coordinate() }).nullable(),
      }),
      { error: V.invalidValue },
    )
    .min(1, { error: V.required })
    .max(TOPOLOGY_POSITIONS_MAX, { error: V.outOfRange })
    .refine((list) => new Set(list.map((p) => p.node_id)).size === list.length, { error: V.duplicate }),
});
export type TopologyPositionsBody = z.input<typeof topologyPositionsBody>;
