import { describe, expect, it } from 'vitest';
import { eventBitsSet } from './device-codes';
import {
  compare,
  evaluateRule,
  median,
  newRuleState,
  stepCondition,
  stillHolds,
  underperformers,
  type Action,
  type RuleInput,
  type RuleState,
  type ThresholdRule,
} from './rule-eval';

const rule = (over: Partial<ThresholdRule> = {}): ThresholdRule => ({
  operant: '>',
  value: 70,
  hysteresis: 0,
  onDelayMs: 0,
  offDelayMs: 0,
  startedAt: null,
  endAt: null,
  expectedIntervalMs: 10_000,
  ...over,
});

/** Runs inputs through a rule; answers the actions in order (null for nothing). */
function run(r: ThresholdRule, inputs: RuleInput[], state: RuleState = newRuleState()) {
  const actions: Action[] = [];
  for (const input of inputs) {
    const step = evaluateRule(r, state, input);
    state = step.state;
    actions.push(step.action);
  }
  return { actions, state };
}
const pt = (ts: number, value: number): RuleInput => ({ kind: 'point', ts, value });
const tick = (now: number): RuleInput => ({ kind: 'tick', now });

describe('compare: every operant', () => {
  it.each([
    ['<', 1, 2, true],
    ['<', 2, 2, false],
    ['<', 3, 2, false],
    ['>', 3, 2, true],
    ['>', 2, 2, false],
    ['>', 1, 2, false],
    ['<=', 2, 2, true],
    ['<=', 1, 2, true],
    ['<=', 3, 2, false],
    ['>=', 2, 2, true],
    ['>=', 3, 2, true],
    ['>=', 1, 2, false],
    ['=', 2, 2, true],
    ['=', 0.1 + 0.2, 0.3, true],
    ['=', 2.001, 2, false],
  ] as const)('%s: %d vs %d → %s', (op, v, th, expected) => {
    expect(compare(op, v, th)).toBe(expected);
  });

  it('hysteresis moves the threshold towards the clear side for each operant', () => {
    expect(stillHolds('>', 68, 70, 5)).toBe(true);
    expect(stillHolds('>', 65, 70, 5)).toBe(false);
    expect(stillHolds('>=', 65, 70, 5)).toBe(true);
    expect(stillHolds('<', 12, 10, 5)).toBe(true);
    expect(stillHolds('<', 15, 10, 5)).toBe(false);
    expect(stillHolds('<=', 15, 10, 5)).toBe(true);
    expect(stillHolds('=', 7.5, 7, 1)).toBe(true);
    expect(stillHolds('=', 8.5, 7, 1)).toBe(false);
    expect(stillHolds('=', 7, 7, 0)).toBe(true);
  });
});

describe('evaluateRule', () => {
  it.each(['<', '>', '>=', '<=', '='] as const)(
    'operant %s raises on a violating point and clears on a good one',
    (op) => {
      const bad = op === '<' || op === '<=' ? 5 : op === '=' ? 10 : 15;
      const good = op === '=' ? 11 : op === '<' || op === '<=' ? 15 : 5;
      const { actions } = run(rule({ operant: op, value: 10 }), [pt(1, good), pt(2, bad), pt(3, good)]);
      expect(actions).toEqual([null, 'raise', 'clear']);
    },
  );

  it('a persisting condition raises once, however many points confirm it', () => {
    const { actions } = run(rule(), [pt(1, 80), pt(2, 90), pt(3, 75), tick(4), pt(5, 100)]);
    expect(actions).toEqual(['raise', null, null, null, null]);
  });

  it('clears and raises again when the condition comes back', () => {
    const { actions } = run(rule(), [pt(1, 80), pt(2, 60), pt(3, 80), pt(4, 60)]);
    expect(actions).toEqual(['raise', 'clear', 'raise', 'clear']);
  });

  it('on-delay: the condition must hold continuously for the delay', () => {
    const r = rule({ onDelayMs: 60_000 });
    // Interrupted at 30 s: the delay starts over.
    expect(
      run(r, [pt(0, 80), pt(30_000, 60), pt(40_000, 80), pt(90_000, 80), pt(100_000, 80)]).actions,
    ).toEqual([null, null, null, null, 'raise']);
  });

  it('timer: a signal that stops changing completes its on-delay on the tick', () => {
    const r = rule({ onDelayMs: 20_000, expectedIntervalMs: 60_000 });
    // One point at t=0 (report by exception), then only ticks every 10 s.
    expect(run(r, [pt(0, 80), tick(10_000), tick(20_000), tick(30_000)]).actions).toEqual([
      null,
      null,
      'raise',
      null,
    ]);
  });

  it('timer: a stale signal neither raises nor clears; a fresh point resumes', () => {
    const r = rule({ onDelayMs: 60_000, expectedIntervalMs: 10_000 });
    // Stale after 3 × 10 s: the pending condition is not promoted by ticks.
    const pending = run(r, [pt(0, 80), tick(31_000), tick(70_000)]);
    expect(pending.actions).toEqual([null, null, null]);
    expect(pending.state.condition.phase).toBe('pending');
    // A fresh violating point after the delay raises.
    expect(run(r, [pt(75_000, 80)], pending.state).actions).toEqual(['raise']);

    // Raised, then the signal goes silent: the alarm is kept (no clear from an old value).
    const raised = run(rule({ offDelayMs: 0 }), [pt(0, 80), tick(60_000), tick(600_000)]);
    expect(raised.actions).toEqual(['raise', null, null]);
    expect(raised.state.condition.phase).toBe('raised');
  });

  it('hysteresis: a value inside the band keeps the alarm; leaving the band clears', () => {
    const r = rule({ value: 70, hysteresis: 5 });
    expect(run(r, [pt(1, 71), pt(2, 69), pt(3, 66), pt(4, 71), pt(5, 64)]).actions).toEqual([
      'raise',
      null,
      null,
      null,
      'clear',
    ]);
  });

  it('off-delay: the value must stay clear for the delay; a relapse keeps the alarm', () => {
    const r = rule({ offDelayMs: 30_000, expectedIntervalMs: 60_000 });
    expect(
      run(r, [pt(0, 80), pt(10_000, 60), pt(20_000, 80), pt(30_000, 60), tick(50_000), tick(60_000)]).actions,
    ).toEqual(['raise', null, null, null, null, 'clear']);
  });

  it('active window: outside it the rule is off; a raised alarm clears when the window ends', () => {
    const r = rule({ startedAt: 1_000, endAt: 5_000 });
    expect(run(r, [pt(500, 80), pt(1_000, 80), pt(2_000, 80), pt(5_000, 80), pt(6_000, 80)]).actions).toEqual(
      [null, 'raise', null, 'clear', null],
    );
    // The timer ends it too, without a new point.
    expect(
      run(rule({ endAt: 5_000, expectedIntervalMs: 60_000 }), [pt(1_000, 80), tick(5_000)]).actions,
    ).toEqual(['raise', 'clear']);
  });

  it('ignores out-of-order points', () => {
    const { actions } = run(rule(), [pt(10, 80), pt(5, 60), pt(11, 80)]);
    expect(actions).toEqual(['raise', null, null]);
  });
});

describe('stepCondition', () => {
  it('unknown (null) keeps the state', () => {
    const s = stepCondition({ phase: 'pending', since: 0 }, null, 1e9, { onDelayMs: 1, offDelayMs: 0 });
    expect(s).toEqual({ state: { phase: 'pending', since: 0 }, action: null });
  });
});

describe('performance and device codes', () => {
  it('median', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
  });

  it('flags an inverter more than X % below the median of its peers, only in daylight', () => {
    const p = new Map([
      [1, 100],
      [2, 98],
      [3, 80],
      [4, 101],
    ]);
    expect([...underperformers(p, 15, true)]).toEqual([
      [1, false],
      [2, false],
      [3, true],
      [4, false],
    ]);
    expect([...underperformers(p, 25, true).values()]).toEqual([false, false, false, false]);
    expect([...underperformers(p, 15, false).values()]).toEqual([false, false, false, false]);
    // Fewer than three reporting inverters: cannot be judged.
    expect([
      ...underperformers(
        new Map([
          [1, 1],
          [2, 50],
        ]),
        15,
        true,
      ).values(),
    ]).toEqual([null, null]);
  });

  it('SunSpec Evt1 bits', () => {
    expect(eventBitsSet(0)).toEqual([]);
    expect(eventBitsSet(1 + 128)).toEqual([0, 7]);
    expect(eventBitsSet(2 ** 15)).toEqual([15]);
  });
});
