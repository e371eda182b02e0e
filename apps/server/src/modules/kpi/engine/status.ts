/**
 * The one status rule for plants and devices (list, map, single-line diagram, inverter page): normal,
 * warning, fault, offline or night, from the active alarms' priorities (packages/shared alarms.ts:
 * 1 low, 2 medium, 3 high, 4 high and dangerous), the communication state and daylight.
 */
import type { AlarmPriority, AlarmSource, OperatingStatus } from '@solar/shared';
import { sunPosition } from '@solar/pv-model';

/** Priorities from which an active alarm makes its subject a fault: 3 high, 4 high and dangerous. */
export const FAULT_MIN_PRIORITY: AlarmPriority = 3;

export type CommunicationState = 'online' | 'lost';

/** What the status needs of an active alarm. */
export interface ActiveAlarmRef {
  priorityId: number;
  source: AlarmSource;
}

export interface StatusInput {
  /** Active alarms of the subject: a device's own, or every alarm of a plant and its devices. */
  activeAlarms: readonly ActiveAlarmRef[];
  /** The subject's own communication: a device's link, or for a plant plantCommunication(...). */
  communication: CommunicationState;
  isDaylight: boolean;
}

/**
 * Status by precedence, first match wins:
 * 1. fault — an active alarm of priority ≥ 3 other than communication loss: something needs a crew, and
 *    it stays visible even if the link drops afterwards;
 * 2. offline — the subject itself does not communicate (its comm_loss alarm is this state, not a fault);
 * 3. warning — any other active alarm: priority 1–2, or, for a plant, a device that lost communication;
 * 4. night — no daylight and nothing above: not producing is expected;
 * 5. normal.
 */
export function operatingStatus({ activeAlarms, communication, isDaylight }: StatusInput): OperatingStatus {
  if (activeAlarms.some((a) => a.source !== 'comm_loss' && a.priorityId >= FAULT_MIN_PRIORITY))
    return 'fault';
  if (communication === 'lost') return 'offline';
  if (activeAlarms.length > 0) return 'warning';
  if (!isDaylight) return 'night';
  return 'normal';
}

/**
 * A plant is offline when none of its devices communicates (or it has none); a plant with some devices
 * silent is online, and their comm_loss alarms make it a warning.
 */
export function plantCommunication(deviceStates: readonly CommunicationState[]): CommunicationState {
  return deviceStates.some((s) => s === 'online') ? 'online' : 'lost';
}

/** Poll intervals without data after which a device is lost (the fleet overview applies it in SQL too). */
export const COMM_LOST_AFTER_POLLS = 3;
/** ...but never sooner than this, so a 30 s poller's single late answer does not flap the status. */
export const COMM_LOST_MIN_MS = 300_000;

/** How long after its newest data a device polled every `pollIntervalS` is still online. */
export function staleAfterMs(pollIntervalS: number): number {
  return Math.max(COMM_LOST_AFTER_POLLS * pollIntervalS * 1000, COMM_LOST_MIN_MS);
}

/**
 * A device's communication from its newest data: lost when nothing arrived for three poll intervals
 * (at least 5 minutes), or ever.
 */
export function communicationState(
  lastDataMs: number | null,
  nowMs: number,
  pollIntervalS: number,
): CommunicationState {
  if (lastDataMs === null) return 'lost';
  return nowMs - lastDataMs > staleAfterMs(pollIntervalS) ? 'lost' : 'online';
}

/** A device's link as the device status answers it: `unknown` for a camera never probed. */
export type DeviceCommunication = CommunicationState | 'unknown';

/** What the camera probe recorded of a camera (modules/cameras/camera-probe.ts); null: never probed. */
export interface CameraProbeRecord {
  /** The last probe answered with an image; null while none was. */
  lastImageMs: number | null;
}

/**
 * A camera's communication: it sends no telemetry, so its link is the camera probe's last image, judged
 * like a device's data: lost after COMM_LOST_AFTER_POLLS probe intervals without one (or when no probe
 * ever got one), unknown while it was never probed (no snapshot address, or no probe ran yet).
 */
export function cameraCommunication(
  probe: CameraProbeRecord | null,
  nowMs: number,
  probeIntervalMs: number,
): DeviceCommunication {
  if (probe === null) return 'unknown';
  if (probe.lastImageMs === null) return 'lost';
  return nowMs - probe.lastImageMs > COMM_LOST_AFTER_POLLS * probeIntervalMs ? 'lost' : 'online';
}

/**
 * A device's status by operatingStatus; when its link is unknown, only what its alarms say (fault or
 * warning), else null: neither offline nor normal can be claimed of a device never heard from.
 */
export function deviceStatus(
  input: Omit<StatusInput, 'communication'> & { communication: DeviceCommunication },
): OperatingStatus | null {
  if (input.communication !== 'unknown')
    return operatingStatus({ ...input, communication: input.communication });
  const byAlarms = operatingStatus({ ...input, communication: 'online', isDaylight: true });
  return byAlarms === 'fault' || byAlarms === 'warning' ? byAlarms : null;
}

/** Daylight: the sun above the horizon at the plant (@solar/pv-model sunPosition: suncalc, Meeus). */
export function isDaylight(tsMs: number, latitude: number, longitude: number): boolean {
  return sunPosition(tsMs, latitude, longitude).elevationDeg > 0;
}

/**
 * A neighbour on the same field makes at least this share of its AC capacity (so the sun is up and the sky
 * clear enough to compare)...
 */
export const NEIGHBOUR_MIN_PERCENT = 20;
/** ...and the plant makes less than this fraction of the neighbour's share: same sun, far less power. */
export const BELOW_NEIGHBOUR_FRACTION = 0.25;

/** What the comparison needs of a plant. */
export interface NeighbourInput {
  id: number;
  name: string;
  fieldId: number;
  status: OperatingStatus;
  /** Live AC power as a share of AC capacity, percent; null when unknown. */
  acCapacityPercent: number | null;
}

/** Why a plant is a warning without an alarm: it makes far less than a neighbour under the same sky. */
export interface BelowNeighbour {
  neighbourId: number;
  neighbourName: string;
  neighbourPercent: number;
}

/**
 * Plants of one field share the weather: a plant at 4 % of its capacity beside one at 44 % has a problem
 * no alarm may have caught (a tripped string combiner, soiling, a stuck tracker). Each such plant, with the
 * neighbour that shows it: the best-producing other plant of its field, when that one makes at least
 * NEIGHBOUR_MIN_PERCENT and this one less than BELOW_NEIGHBOUR_FRACTION of it. Only plants otherwise
 * "normal" are compared (a fault or an offline plant already says why; at night nothing is compared).
 */
export function belowNeighbours(plants: readonly NeighbourInput[]): Map<number, BelowNeighbour> {
  const out = new Map<number, BelowNeighbour>();
  for (const plant of plants) {
    if (plant.status !== 'normal' || plant.acCapacityPercent === null) continue;
    let best: NeighbourInput | undefined;
    for (const other of plants) {
      if (other.id === plant.id || other.fieldId !== plant.fieldId || other.acCapacityPercent === null)
        continue;
      if (!best || other.acCapacityPercent > best.acCapacityPercent!) best = other;
    }
    if (
      best &&
      best.acCapacityPercent! >= NEIGHBOUR_MIN_PERCENT &&
      plant.acCapacityPercent < BELOW_NEIGHBOUR_FRACTION * best.acCapacityPercent!
    )
      out.set(plant.id, {
        neighbourId: best.id,
        neighbourName: best.name,
        neighbourPercent: best.acCapacityPercent!,
      });
  }
  return out;
}
