/**
 * The alarm runtime: listens to stored telemetry (and, when given, the Modbus poller's communication
 * states), judges rules in memory with the pure functions of rule-eval.ts, writes raises and clears in
 * one transaction per batch, then pushes them to SSE (`alarm` events, page `alarm`) and the AlarmFeed.
 *
 * Hot path: `onStored` looks each point's signal up in two maps (custom rules by tag, built-in signals)
 * and does no I/O; writes are queued and flushed in order by one writer, so raise/clear of a condition
 * are never reordered and the event log grows in commit order from this writer.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AlarmOperant, AlarmSource } from '@solar/shared';
import type { DeviceStateEvent } from '../collectors/modbus/modbus-poller';
import type { AppContext } from '../context';
import type { StoredPoint } from '../telemetry-store/telemetry-hub';
import { publishAlarmEvents } from './alarm-publish';
import {
  activeConditions,
  clearAlarms,
  deviceCommStates,
  EVENT_KEYS,
  IRRADIANCE_KEYS,
  loadActiveRules,
  loadSignalCatalog,
  POWER_KEYS,
  raiseAlarms,
  STATUS_KEYS,
  type CatalogRow,
  type RaiseRequest,
  type RuleRow,
  type WrittenEvent,
} from './alarm-store.repository';
import { EVENT_BIT_ALARMS, MSG, STATUS_ALARMS, eventBitsSet } from './device-codes';
import {
  IDLE,
  STALE_FACTOR,
  evaluateRule,
  newRuleState,
  stepCondition,
  underperformers,
  type ConditionState,
  type RuleState,
  type ThresholdRule,
} from './rule-eval';

export interface AlarmEngineOptions {
  /** Timer evaluation period (default 10 s). */
  tickMs?: number;
  /** Re-read the built-in signal catalog this often (new inverters, weather stations). Default 60 s. */
  catalogReloadMs?: number;
  /** The Modbus poller, for communication-loss alarms; absent: none are raised. */
  modbus?: { onDeviceState(listener: (event: DeviceStateEvent) => void): () => void };
  /** Plant producing nothing while irradiance is above this (W/m²)… */
  irradianceThresholdWm2?: number;
  /** …for this long raises `plant_no_production` (default 15 min). */
  noProductionDelayMs?: number;
  /** Inverter more than this % below the median of its peers… (default 15) */
  performanceThresholdPct?: number;
  /** …for this long in daylight raises `performance` (default 30 min). */
  performanceDelayMs?: number;
}

export interface AlarmEngine {
  /** Re-reads the custom rules (after create, update, delete); clears alarms of rules that went away. */
  reloadRules(): Promise<void>;
  /** Runs the timer evaluation now (tests; the timer calls it every tickMs). */
  tick(now?: number): Promise<void>;
  /** Resolves once everything queued so far is written and published. */
  idle(): Promise<void>;
  /** Rules loaded and points judged since start. */
  stats(): { rules: number; points: number; evaluations: number };
  stop(): Promise<void>;
}

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

interface LoadedRule {
  row: RuleRow;
  rule: ThresholdRule;
  state: RuleState;
}

type Op = { kind: 'raise'; raise: RaiseRequest } | { kind: 'clear'; key: string; at: number };

interface Latest {
  ts: number;
  value: number;
  intervalMs: number;
}

const engines = new WeakMap<object, AlarmEngine>();

/** The running engine of a context, if one was started (routes ask it to reload rules). */
export function alarmEngineOf(ctx: object): AlarmEngine | undefined {
  return engines.get(ctx);
}

const fresh = (l: Latest | undefined, now: number): l is Latest =>
  !!l && now - l.ts <= STALE_FACTOR * l.intervalMs;

/** Starts the engine: loads rules, active conditions and the signal catalog, then listens. */
export async function startAlarmEngine(
  ctx: Pick<AppContext, 'db' | 'now' | 'telemetry' | 'stream'>,
  log: Log,
  options: AlarmEngineOptions = {},
): Promise<AlarmEngine> {
  const tickMs = options.tickMs ?? 10_000;
  const irradianceMin = options.irradianceThresholdWm2 ?? 200;
  const noProductionDelayMs = options.noProductionDelayMs ?? 15 * 60_000;
  const perfPct = options.performanceThresholdPct ?? 15;
  const perfDelayMs = options.performanceDelayMs ?? 30 * 60_000;

  const rules = new Map<number, LoadedRule>();
  const rulesBySignal = new Map<number, LoadedRule[]>();
  const catalog = new Map<number, CatalogRow>();
  /** Condition keys active now (mirrors alarms.active_key). */
  const active = new Set<string>();
  /** Latest inverter power and weather irradiance per plant. */
  const power = new Map<number, Map<number, Latest>>();
  const irradiance = new Map<number, Map<number, Latest>>();
  const ratedKw = new Map<number, number>();
  const plantConditions = new Map<string, ConditionState>();
  let ops: Op[] = [];
  let chain: Promise<void> = Promise.resolve();
  let stopped = false;
  let points = 0;
  let evaluations = 0;

  const raise = (r: RaiseRequest) => {
    if (active.has(r.key)) return;
    active.add(r.key);
    ops.push({ kind: 'raise', raise: r });
  };
  const clear = (key: string, at: number) => {
    if (!active.delete(key)) return;
    ops.push({ kind: 'clear', key, at });
  };

  const compile = (row: RuleRow): ThresholdRule => ({
    operant: row.operant as AlarmOperant,
    value: row.value,
    hysteresis: row.hysteresis,
    onDelayMs: row.on_delay_s * 1000,
    offDelayMs: row.off_delay_s * 1000,
    startedAt: row.started_at,
    endAt: row.end_at,
    expectedIntervalMs: Math.max(1, row.poll_interval_s) * 1000,
  });

  const ruleRaise = (l: LoadedRule, at: number, value: number | null): RaiseRequest => ({
    key: `rule:${l.row.id}`,
    plant_id: l.row.plant_id,
    device_id: l.row.device_id,
    tag_id: l.row.tag_id,
    source: 'custom',
    rule_id: l.row.id,
    priority_id: l.row.priority_id,
    message: MSG.custom,
    message_params: {
      name: l.row.name,
      value,
      operant: l.row.operant,
      threshold: l.row.value,
      unit: l.row.unit,
    },
    at,
  });

  const judge = (l: LoadedRule, input: Parameters<typeof evaluateRule>[2]) => {
    evaluations++;
    const { state, action } = evaluateRule(l.rule, l.state, input);
    l.state = state;
    const at = input.kind === 'point' ? input.ts : input.now;
    if (action === 'raise') raise(ruleRaise(l, at, state.lastValue));
    else if (action === 'clear') clear(`rule:${l.row.id}`, at);
  };

  async function reloadRules(): Promise<void> {
    const rows = await loadActiveRules(ctx.db);
    const next = new Map<number, LoadedRule>();
    for (const row of rows) {
      const before = rules.get(row.id);
      const rule = compile(row);
      // A changed threshold starts over; an unchanged rule keeps its state (a rename keeps the alarm).
      const same =
        before && before.row.tag_id === row.tag_id && JSON.stringify(before.rule) === JSON.stringify(rule);
      let state = same ? before.state : newRuleState();
      if (!same && active.has(`rule:${row.id}`)) {
        // The condition's alarm stays until the new rule judges the value clear.
        state = { ...state, condition: { phase: 'raised', since: ctx.now() } };
      }
      next.set(row.id, { row, rule, state });
    }
    const now = ctx.now();
    for (const key of [...active]) {
      if (!key.startsWith('rule:')) continue;
      const id = Number(key.slice(5));
      if (!next.has(id)) clear(key, now);
    }
    rules.clear();
    rulesBySignal.clear();
    for (const l of next.values()) {
      rules.set(l.row.id, l);
      let list = rulesBySignal.get(l.row.tag_id);
      if (!list) rulesBySignal.set(l.row.tag_id, (list = []));
      list.push(l);
    }
    schedule();
  }

  async function reloadCatalog(): Promise<void> {
    const rows = await loadSignalCatalog(ctx.db);
    catalog.clear();
    ratedKw.clear();
    for (const r of rows) {
      catalog.set(r.signal_id, r);
      if (r.device_type === 'inverter' && r.rated_power_kw !== null)
        ratedKw.set(r.device_id, r.rated_power_kw);
    }
  }

  const deviceRaise = (
    p: { plant_id: number; device_id: number; signal_id: number | null; ts: number },
    key: string,
    source: AlarmSource,
    alarm: { message: string; priority: number },
    params: RaiseRequest['message_params'] = {},
  ): RaiseRequest => ({
    key,
    plant_id: p.plant_id,
    device_id: p.device_id,
    tag_id: p.signal_id,
    source,
    rule_id: null,
    priority_id: alarm.priority,
    message: alarm.message,
    message_params: params,
    at: p.ts,
  });

  const builtIn = (p: StoredPoint, c: CatalogRow) => {
    const intervalMs = Math.max(1, c.poll_interval_s) * 1000;
    if ((STATUS_KEYS as readonly string[]).includes(c.key)) {
      for (const [code, alarm] of STATUS_ALARMS) {
        const key = `st:${p.device_id}:${code}`;
        if (p.value === code) raise(deviceRaise(p, key, 'device_status', alarm, { code }));
        else clear(key, p.ts);
      }
    } else if ((EVENT_KEYS as readonly string[]).includes(c.key)) {
      const set = new Set(eventBitsSet(p.value));
      for (const [bit, alarm] of EVENT_BIT_ALARMS) {
        const key = `evt:${p.device_id}:${bit}`;
        if (set.has(bit)) raise(deviceRaise(p, key, 'device_status', alarm, { bit }));
        else clear(key, p.ts);
      }
    } else if ((POWER_KEYS as readonly string[]).includes(c.key)) {
      let m = power.get(p.plant_id);
      if (!m) power.set(p.plant_id, (m = new Map<number, Latest>()));
      const before = m.get(p.device_id);
      if (!before || before.ts <= p.ts) m.set(p.device_id, { ts: p.ts, value: p.value, intervalMs });
    } else if ((IRRADIANCE_KEYS as readonly string[]).includes(c.key)) {
      let m = irradiance.get(p.plant_id);
      if (!m) irradiance.set(p.plant_id, (m = new Map<number, Latest>()));
      const before = m.get(p.device_id);
      if (!before || before.ts <= p.ts) m.set(p.device_id, { ts: p.ts, value: p.value, intervalMs });
    }
  };

  const onStored = (batch: readonly StoredPoint[]) => {
    if (stopped) return;
    try {
      for (const p of batch) {
        points++;
        const list = rulesBySignal.get(p.signal_id);
        if (list) for (const l of list) judge(l, { kind: 'point', ts: p.ts, value: p.value });
        const c = catalog.get(p.signal_id);
        if (c) builtIn(p, c);
      }
    } catch (error) {
      log.error({ err: error }, 'alarm evaluation failed');
    }
    schedule();
  };

  /** Plant-level conditions on the timer: no production in sunshine, and underperforming inverters. */
  const judgePlants = (now: number) => {
    const plants = new Set([...power.keys(), ...irradiance.keys()]);
    for (const plantId of plants) {
      const irr = [...(irradiance.get(plantId)?.values() ?? [])].filter((l) => fresh(l, now));
      const sunny = irr.length ? Math.max(...irr.map((l) => l.value)) > irradianceMin : null;
      const inverters = power.get(plantId) ?? new Map<number, Latest>();
      const live = new Map([...inverters].filter(([, l]) => fresh(l, now)).map(([id, l]) => [id, l.value]));

      // No production: only judged with fresh irradiance and fresh inverter data.
      if (inverters.size) {
        const rated = [...inverters.keys()].reduce((s, id) => s + (ratedKw.get(id) ?? 0), 0);
        const floorKw = rated > 0 ? rated * 0.01 : 0.1;
        const produced = [...live.values()].reduce((s, v) => s + Math.max(0, v), 0);
        const holds = sunny === null || live.size === 0 ? null : sunny && produced <= floorKw;
        const key = `noprod:${plantId}`;
        const before = plantConditions.get(key) ?? (active.has(key) ? { phase: 'raised', since: now } : IDLE);
        const step = stepCondition(before, holds, now, { onDelayMs: noProductionDelayMs, offDelayMs: 0 });
        plantConditions.set(key, step.state);
        if (step.action === 'raise')
          raise({
            key,
            plant_id: plantId,
            device_id: null,
            tag_id: null,
            source: 'plant_no_production',
            rule_id: null,
            priority_id: 3,
            message: MSG.plantNoProduction,
            message_params: { irradiance: Math.round(Math.max(...irr.map((l) => l.value))) },
            at: now,
          });
        else if (step.action === 'clear') clear(key, now);
      }

      // Performance: daylight from irradiance when the plant has a weather station, else from the median.
      const verdicts = underperformers(live, perfPct, sunny ?? true);
      for (const [deviceId, holds] of verdicts) {
        const key = `perf:${deviceId}`;
        const before = plantConditions.get(key) ?? (active.has(key) ? { phase: 'raised', since: now } : IDLE);
        const step = stepCondition(before, holds, now, { onDelayMs: perfDelayMs, offDelayMs: 0 });
        plantConditions.set(key, step.state);
        if (step.action === 'raise')
          raise(
            deviceRaise(
              { plant_id: plantId, device_id: deviceId, signal_id: null, ts: now },
              key,
              'performance',
              {
                message: MSG.underperformance,
                priority: 2,
              },
              { threshold: perfPct },
            ),
          );
        else if (step.action === 'clear') clear(key, now);
      }
    }
  };

  async function tick(now = ctx.now()): Promise<void> {
    try {
      for (const l of rules.values()) judge(l, { kind: 'tick', now });
      judgePlants(now);
    } catch (error) {
      log.error({ err: error }, 'alarm timer evaluation failed');
    }
    schedule();
    await idle();
  }

  function schedule(): void {
    if (!ops.length) return;
    chain = chain.then(flush, flush);
  }

  async function flush(): Promise<void> {
    const batch = ops;
    ops = [];
    if (!batch.length) return;
    let written: WrittenEvent[];
    try {
      written = await ctx.db.transaction().execute(async (trx) => {
        const out: WrittenEvent[] = [];
        // Consecutive ops of one kind go in one statement; the order of kinds is kept.
        for (let i = 0; i < batch.length;) {
          const kind = batch[i]!.kind;
          let j = i;
          while (j < batch.length && batch[j]!.kind === kind) j++;
          const run = batch.slice(i, j);
          if (kind === 'raise')
            out.push(
              ...(await raiseAlarms(
                trx,
                run.map((o) => (o as Extract<Op, { kind: 'raise' }>).raise),
              )),
            );
          else
            out.push(
              ...(await clearAlarms(
                trx,
                run.map((o) => o as Extract<Op, { kind: 'clear' }>),
              )),
            );
          i = j;
        }
        return out;
      });
    } catch (error) {
      log.error({ err: error, ops: batch.length }, 'alarm write failed');
      await resyncActive();
      return;
    }
    await publishAlarmEvents(ctx, written, log);
  }

  async function resyncActive(): Promise<void> {
    try {
      const rows = await activeConditions(ctx.db);
      active.clear();
      for (const r of rows) active.add(r.key);
    } catch (error) {
      log.error({ err: error }, 'alarm state resync failed');
    }
  }

  async function idle(): Promise<void> {
    let last: Promise<void>;
    do {
      last = chain;
      await last;
    } while (last !== chain || ops.length);
  }

  const onDeviceState = (event: DeviceStateEvent) => {
    if (stopped) return;
    const key = `comm:${event.deviceId}`;
    if (event.state === 'lost')
      raise(
        deviceRaise(
          { plant_id: event.plantId, device_id: event.deviceId, signal_id: null, ts: event.at },
          key,
          'comm_loss',
          { message: MSG.commLoss, priority: 3 },
          { error: event.lastError },
        ),
      );
    else if (event.state === 'online') clear(key, event.at);
    schedule();
  };

  // Start: what is active now, the rules and the catalog; then listen.
  await resyncActive();
  await reloadCatalog();
  await reloadRules();
  if (options.modbus) {
    // Catch up with what the poller recorded while the engine was not running.
    const now = ctx.now();
    for (const s of await deviceCommStates(ctx.db)) {
      const key = `comm:${s.device_id}`;
      if (s.lost)
        raise(
          deviceRaise(
            { plant_id: s.plant_id, device_id: s.device_id, signal_id: null, ts: now },
            key,
            'comm_loss',
            {
              message: MSG.commLoss,
              priority: 3,
            },
          ),
        );
      else clear(key, now);
    }
    schedule();
  }
  const unsubscribeTelemetry = ctx.telemetry.onStored(onStored);
  const unsubscribeModbus = options.modbus?.onDeviceState(onDeviceState);
  const timer = setInterval(() => void tick(), tickMs);
  timer.unref();
  const catalogTimer = setInterval(() => {
    reloadCatalog().catch((error: unknown) => log.error({ err: error }, 'alarm catalog reload failed'));
  }, options.catalogReloadMs ?? 60_000);
  catalogTimer.unref();

  const engine: AlarmEngine = {
    async reloadRules() {
      await reloadRules();
      await reloadCatalog();
      await idle();
    },
    tick,
    idle,
    stats: () => ({ rules: rules.size, points, evaluations }),
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearInterval(catalogTimer);
      unsubscribeTelemetry();
      unsubscribeModbus?.();
      await idle();
      if (engines.get(ctx) === engine) engines.delete(ctx);
    },
  };
  engines.set(ctx, engine);
  return engine;
}
