/**
 * Pure alarm rule evaluation: no I/O, no clock. The runtime feeds each rule its points and a timer tick,
 * and writes what these functions decide.
 *
 * A condition goes idle → pending (holds, on-delay running) → raised → clearing (clear, off-delay
 * running) → idle. Decisions:
 * - raise: the condition held continuously for `onDelayMs` (0: at once). A persisting condition never
 *   raises again: `raised`/`clearing` only answer `clear` or nothing.
 * - clear: while raised, the value is clear of the threshold by the hysteresis margin, and stayed so for
 *   `offDelayMs`. A value inside the band keeps the alarm raised (no flapping at the threshold).
 * - Timer (`tick`): the last known value is judged again at `now`, so a signal that stops changing
 *   (report-by-exception senders) still completes its on/off delays.
 * - Stale signal: no point for STALE_FACTOR × the signal's expected interval. A stale signal is not
 *   judged: a pending condition does not raise and a raised alarm does not clear from an old value (its
 *   device's communication loss is the alarm for silence). A fresh point resumes evaluation.
 * - Active window [startedAt, endAt): outside it the rule is off; a raised alarm clears (its window
 *   ended), a pending condition is dropped. Points are judged at their own timestamp, ticks at `now`.
 * - Out-of-order points (older than the last one judged) are ignored: they cannot change the present.
 */
import type { AlarmOperant } from '@solar/shared';

/** No point for this many expected intervals makes a signal stale. */
export const STALE_FACTOR = 3;

/** Relative tolerance of `=` for floating point values. */
const EQUAL_EPS = 1e-9;

/** True when `value operant threshold` holds. */
export function compare(operant: AlarmOperant, value: number, threshold: number): boolean {
  switch (operant) {
    case '<':
      return value < threshold;
    case '>':
      return value > threshold;
    case '<=':
      return value <= threshold;
    case '>=':
      return value >= threshold;
    case '=':
      return Math.abs(value - threshold) <= EQUAL_EPS * Math.max(1, Math.abs(threshold));
  }
}

/**
 * Whether a raised condition still holds: the threshold moves by `hysteresis` towards the clear side,
 * so the value must leave the band [threshold ± hysteresis] to clear. For `=` the band is
 * |value − threshold| ≤ hysteresis.
 */
export function stillHolds(
  operant: AlarmOperant,
  value: number,
  threshold: number,
  hysteresis: number,
): boolean {
  const h = Math.max(0, hysteresis);
  switch (operant) {
    case '<':
      return value < threshold + h;
    case '<=':
      return value <= threshold + h;
    case '>':
      return value > threshold - h;
    case '>=':
      return value >= threshold - h;
    case '=':
      return h > 0 ? Math.abs(value - threshold) <= h : compare('=', value, threshold);
  }
}

export type Phase = 'idle' | 'pending' | 'raised' | 'clearing';

/** A condition's debounce state. `since` is when the current phase began (epoch ms). */
export interface ConditionState {
  phase: Phase;
  since: number;
}

export type Action = 'raise' | 'clear' | null;

export interface Delays {
  onDelayMs: number;
  offDelayMs: number;
}

export const IDLE: ConditionState = Object.freeze<ConditionState>({ phase: 'idle', since: 0 });

/**
 * One debounce step of a boolean condition observed at time `at`. `holds` null means "unknown" (stale
 * data): the state is kept and nothing is decided.
 */
export function stepCondition(
  state: ConditionState,
  holds: boolean | null,
  at: number,
  delays: Delays,
): { state: ConditionState; action: Action } {
  if (holds === null) return { state, action: null };
  switch (state.phase) {
    case 'idle':
      if (!holds) return { state, action: null };
      if (delays.onDelayMs <= 0) return { state: { phase: 'raised', since: at }, action: 'raise' };
      return { state: { phase: 'pending', since: at }, action: null };
    case 'pending':
      if (!holds) return { state: IDLE, action: null };
      if (at - state.since >= delays.onDelayMs)
        return { state: { phase: 'raised', since: at }, action: 'raise' };
      return { state, action: null };
    case 'raised':
      if (holds) return { state, action: null };
      if (delays.offDelayMs <= 0) return { state: IDLE, action: 'clear' };
      return { state: { phase: 'clearing', since: at }, action: null };
    case 'clearing':
      if (holds) return { state: { phase: 'raised', since: at }, action: null };
      if (at - state.since >= delays.offDelayMs) return { state: IDLE, action: 'clear' };
      return { state, action: null };
  }
}

/** A threshold rule as the engine holds it (custom alarms). Times in epoch ms. */
export interface ThresholdRule {
  operant: AlarmOperant;
  value: number;
  hysteresis: number;
  onDelayMs: number;
  offDelayMs: number;
  /** Active window; null: open-ended. */
  startedAt: number | null;
  endAt: number | null;
  /** Expected interval between points of the signal (the device's poll interval). */
  expectedIntervalMs: number;
}

/** Per-rule memory: the debounce state and the last point judged. */
export interface RuleState {
  condition: ConditionState;
  lastTs: number | null;
  lastValue: number | null;
}

export const newRuleState = (): RuleState => ({ condition: IDLE, lastTs: null, lastValue: null });

export type RuleInput = { kind: 'point'; ts: number; value: number } | { kind: 'tick'; now: number };

/** True when `at` lies in the rule's active window. */
export function inWindow(rule: Pick<ThresholdRule, 'startedAt' | 'endAt'>, at: number): boolean {
  return (rule.startedAt === null || at >= rule.startedAt) && (rule.endAt === null || at < rule.endAt);
}

/** True when the signal's last point is older than STALE_FACTOR expected intervals at `now`. */
export function isStale(rule: Pick<ThresholdRule, 'expectedIntervalMs'>, lastTs: number | null, now: number) {
  return lastTs === null || now - lastTs > STALE_FACTOR * rule.expectedIntervalMs;
}

/**
 * Judges a threshold rule on a new point or a timer tick; answers the next state and what to do. Mutates
 * nothing. See the module comment for the semantics.
 */
export function evaluateRule(
  rule: ThresholdRule,
  state: RuleState,
  input: RuleInput,
): { state: RuleState; action: Action } {
  const delays = { onDelayMs: rule.onDelayMs, offDelayMs: rule.offDelayMs };
  const at = input.kind === 'point' ? input.ts : input.now;
  if (input.kind === 'point' && state.lastTs !== null && input.ts < state.lastTs)
    return { state, action: null };
  const lastTs = input.kind === 'point' ? input.ts : state.lastTs;
  const lastValue = input.kind === 'point' ? input.value : state.lastValue;

  if (!inWindow(rule, at)) {
    const raised = state.condition.phase === 'raised' || state.condition.phase === 'clearing';
    return { state: { condition: IDLE, lastTs, lastValue }, action: raised ? 'clear' : null };
  }
  let holds: boolean | null;
  if (lastValue === null || (input.kind === 'tick' && isStale(rule, lastTs, input.now))) holds = null;
  else if (state.condition.phase === 'raised' || state.condition.phase === 'clearing')
    holds = stillHolds(rule.operant, lastValue, rule.value, rule.hysteresis);
  else holds = compare(rule.operant, lastValue, rule.value);
  const step = stepCondition(state.condition, holds, at, delays);
  return { state: { condition: step.state, lastTs, lastValue }, action: step.action };
}

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Performance condition of each inverter of a plant: its power is more than `thresholdPct` % below the
 * median of its peers (the plant's other inverters with fresh data), in daylight. Needs at least three
 * reporting inverters and a median above `minMedianKw` (dawn, dusk and curtailment to zero are no
 * underperformance). Answers per inverter true/false, or null when it cannot be judged.
 */
export function underperformers(
  powerKw: ReadonlyMap<number, number>,
  thresholdPct: number,
  daylight: boolean,
  minMedianKw = 1,
): Map<number, boolean | null> {
  const out = new Map<number, boolean | null>();
  const ids = [...powerKw.keys()];
  if (!daylight || ids.length < 3) {
    for (const id of ids) out.set(id, daylight ? null : false);
    return out;
  }
  for (const id of ids) {
    const peers = ids.filter((other) => other !== id).map((other) => powerKw.get(other)!);
    const m = median(peers);
    out.set(id, m < minMedianKw ? false : powerKw.get(id)! < m * (1 - thresholdPct / 100));
  }
  return out;
}
