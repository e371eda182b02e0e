/**
 * The alarm runtime, wired: it takes stored telemetry (and communication states from the Modbus poller and
 * the demo simulator), judges custom rules with rule-eval.ts, device codes with device-codes.ts and the
 * plant-level conditions with plant-conditions.ts, and hands raises and clears to the writer
 * (alarm-writer.ts), which commits and publishes them.
 *
 * buildApp creates the one engine and puts it on AppContext; background.ts starts it. Hot path:
 * `observe` looks each point's signal up in two maps (custom rules by tag, built-in signals) and does no
 * I/O.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AlarmOperant, AlarmPriority, AlarmSource } from '@solar/shared';
import { ALARM_PRIORITY, VENDOR_ALARM_CODES, VENDOR_ALARM_WORDS } from '@solar/shared';
import type { DeviceStateEvent } from '../../../collectors/modbus/modbus-poller';
import type { AppContext } from '../../../context';
import type { StoredPoint } from '../../../telemetry-store/telemetry-hub';
import { SILENT_PUBLISHER, type AlarmPublisher } from './alarm-publish';
import {
  EVENT_KEYS,
  GRID_KEYS,
  IRRADIANCE_KEYS,
  POWER_KEYS,
  STATUS_KEYS,
  deviceCommStates,
  loadActiveRules,
  loadSignalCatalog,
  type CatalogRow,
  type RaiseRequest,
  type RuleRow,
} from './alarm-store.repository';
import { createAlarmWriter } from './alarm-writer';
import { ChatterGuard } from './chatter-guard';
import { EVENT_BIT_ALARMS, MSG, STATUS_ALARMS, eventBitsSet } from './device-codes';
import {
  DEFAULT_PLANT_CONDITION_OPTIONS,
  judgePlant,
  type PlantConditionOptions,
  type Reading,
} from './plant-conditions';
import {
  evaluateRule,
  newRuleState,
  type ConditionState,
  type RuleState,
  type ThresholdRule,
} from './rule-eval';

export interface AlarmEngineOptions extends Partial<PlantConditionOptions> {
  /** Timer evaluation period (default 10 s). */
  tickMs?: number;
  /** Re-read the built-in signal catalog this often (new inverters, weather stations). Default 60 s. */
  catalogReloadMs?: number;
  /**
   * An edge agent with no report for longer than this raises its plant's communication loss (docs/edge.md).
   * Default EDGE_SILENCE_MS: three of its one-minute reports missed, plus 30 s of grace.
   */
  edgeSilenceMs?: number;
}

/** Three missed one-minute health reports and 30 s of grace for a slow link. */
export const EDGE_SILENCE_MS = 3 * 60_000 + 30_000;

/** An edge agent's last health report (modules/edge `readAgentReports`). */
export interface EdgeAgentReport {
  plant_id: number;
  agent_id: string;
  /** The console's clock when it arrived. */
  last_report_at: number;
}

export interface AlarmEngineStart {
  log?: Log;
  /**
   * false: the engine neither subscribes to stored telemetry nor runs timers; the caller drives it with
   * `observe`, `deviceState` and `tick` (the demo's history replay). Default true.
   */
  listen?: boolean;
  /** Raise and clear communication loss from what the Modbus poller left in device_status. */
  commStatesAtStart?: boolean;
}

export interface AlarmEngine {
  /**
   * Loads active conditions, rules and the signal catalog, then listens. After `stop` it starts afresh from
   * the database (a node that takes the cluster's lease over).
   */
  start(options?: AlarmEngineStart): Promise<void>;
  /** Judges stored points (what `telemetry.onStored` delivers). */
  observe(batch: readonly StoredPoint[]): void;
  /** A device's communication state changed (Modbus poller, simulator). */
  deviceState(event: DeviceStateEvent): void;
  /**
   * Re-reads the custom rules (after create, update, delete); clears alarms of rules that went away. Tells
   * the other nodes (`announceRules`), whose engines then call `reloadRulesFromPeer`.
   */
  reloadRules(): Promise<void>;
  /** Re-reads the rules another node changed (or all, after the cluster bus was away), telling no one. */
  reloadRulesFromPeer(): Promise<void>;
  /**
   * Runs the timer evaluation now (tests and replay; the timer calls it every tickMs). With `plantId`
   * only that plant's rules and conditions: a replay that goes plant by plant has the others elsewhere
   * in time.
   */
  tick(now?: number, plantId?: number): Promise<void>;
  /**
   * Alarms another module judges from stored data on its own timer (string health): raises each of
   * `raises` that is not active yet, and clears every active alarm whose key starts with one of
   * `prefixes` and is not among them, at `clearedAt`'s instant for its key, else at `now`. The keys of
   * one caller share their prefixes, so one caller never clears another's.
   */
  reconcile(judged: {
    prefixes: readonly string[];
    raises: readonly RaiseRequest[];
    clearedAt?: ReadonlyMap<string, number>;
    now: number;
  }): Promise<void>;
  /** Resolves once everything queued so far is written and published. */
  idle(): Promise<void>;
  /** Rules loaded and points judged since start. */
  stats(): { rules: number; points: number; evaluations: number };
  stop(): Promise<void>;
  /**
   * A new, stopped engine with the same options that publishes nothing (no live push, no mail): for
   * replaying history, whose alarms are written but are not news.
   */
  replayer(): AlarmEngine;
}

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

interface LoadedRule {
  row: RuleRow;
  rule: ThresholdRule;
  state: RuleState;
}

const silentLog: Log = { info: () => undefined, warn: () => undefined, error: () => undefined };

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

const deviceRaise = (
  p: { plant_id: number; device_id: number; signal_id: number | null; ts: number },
  key: string,
  source: AlarmSource,
  alarm: { message: string; priority: AlarmPriority },
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

const commLoss = { message: MSG.commLoss, priority: ALARM_PRIORITY.high };
const gridOutage = { message: MSG.gridOutage, priority: ALARM_PRIORITY.high };

/** A stopped engine; `start` brings it to life. */
export function createAlarmEngine(
  deps: Pick<AppContext, 'db' | 'now'> & {
    /** Stored telemetry, of this node and (several nodes) of the others. */
    telemetry: Pick<AppContext['telemetry'], 'onStored'>;
    publisher: AlarmPublisher;
    /** The plant-condition thresholds in force (the settings service); the defaults without it. */
    conditions?: () => PlantConditionOptions;
    /** Told how long each evaluation pass took, in seconds (the /metrics histogram). */
    onEvaluated?: (kind: 'point' | 'tick', seconds: number) => void;
    /** Tells the other nodes that the rules changed (the cluster bus); on a single node no one listens. */
    announceRules?: () => void;
    /** The edge agents' last reports, read at each tick for their silence; without it none is judged. */
    edgeAgents?: () => Promise<readonly EdgeAgentReport[]>;
  },
  options: AlarmEngineOptions = {},
): AlarmEngine {
  const tickMs = options.tickMs ?? 10_000;
  // Read at each judgement: the admin panel's thresholds apply from the next tick, without a restart.
  // An option set here (tests) wins over the settings.
  const conditions = (): PlantConditionOptions => {
    const base = deps.conditions?.() ?? DEFAULT_PLANT_CONDITION_OPTIONS;
    return {
      irradianceThresholdWm2: options.irradianceThresholdWm2 ?? base.irradianceThresholdWm2,
      noProductionDelayMs: options.noProductionDelayMs ?? base.noProductionDelayMs,
      performanceThresholdPct: options.performanceThresholdPct ?? base.performanceThresholdPct,
      performanceDelayMs: options.performanceDelayMs ?? base.performanceDelayMs,
    };
  };
  let log: Log = silentLog;
  const writer = createAlarmWriter({ db: deps.db, publisher: deps.publisher, log: () => log });

  const rules = new Map<number, LoadedRule>();
  const rulesBySignal = new Map<number, LoadedRule[]>();
  const catalog = new Map<number, CatalogRow>();
  /** Latest inverter power and weather irradiance, by plant then device. */
  const power = new Map<number, Map<number, Reading>>();
  const irradiance = new Map<number, Map<number, Reading>>();
  const ratedKw = new Map<number, number>();
  const plantConditions = new Map<string, ConditionState>();
  let started = false;
  let stopped = false;
  let points = 0;
  let evaluations = 0;
  const cleanups: (() => void)[] = [];

  const judge = (l: LoadedRule, input: Parameters<typeof evaluateRule>[2]) => {
    evaluations++;
    const { state, action } = evaluateRule(l.rule, l.state, input);
    l.state = state;
    const at = input.kind === 'point' ? input.ts : input.now;
    if (action === 'raise') writer.raise(ruleRaise(l, at, state.lastValue));
    else if (action === 'clear') writer.clear(`rule:${l.row.id}`, at);
  };

  async function reloadRules(): Promise<void> {
    const rows = await loadActiveRules(deps.db);
    const next = new Map<number, LoadedRule>();
    for (const row of rows) {
      const before = rules.get(row.id);
      const rule = compile(row);
      // A changed threshold starts over; an unchanged rule keeps its state (a rename keeps the alarm).
      const same =
        before && before.row.tag_id === row.tag_id && JSON.stringify(before.rule) === JSON.stringify(rule);
      let state = same ? before.state : newRuleState();
      if (!same && writer.isActive(`rule:${row.id}`)) {
        // The condition's alarm stays until the new rule judges the value clear.
        state = { ...state, condition: { phase: 'raised', since: deps.now() } };
      }
      next.set(row.id, { row, rule, state });
    }
    const now = deps.now();
    for (const key of writer.activeKeys()) {
      if (!key.startsWith('rule:')) continue;
      if (!next.has(Number(key.slice(5)))) writer.clear(key, now);
    }
    rules.clear();
    rulesBySignal.clear();
    for (const l of next.values()) {
      rules.set(l.row.id, l);
      let list = rulesBySignal.get(l.row.tag_id);
      if (!list) rulesBySignal.set(l.row.tag_id, (list = []));
      list.push(l);
    }
    writer.flush();
  }

  async function reloadCatalog(): Promise<void> {
    const rows = await loadSignalCatalog(deps.db);
    catalog.clear();
    ratedKw.clear();
    for (const r of rows) {
      catalog.set(r.signal_id, r);
      if (r.device_type === 'inverter' && r.rated_power_kw !== null)
        ratedKw.set(r.device_id, r.rated_power_kw);
    }
  }

  const remember = (byPlant: Map<number, Map<number, Reading>>, p: StoredPoint, intervalMs: number) => {
    let m = byPlant.get(p.plant_id);
    if (!m) byPlant.set(p.plant_id, (m = new Map<number, Reading>()));
    const before = m.get(p.device_id);
    if (!before || before.ts <= p.ts) m.set(p.device_id, { ts: p.ts, value: p.value, intervalMs });
  };

  /** Device status and event codes, with chattering ones held active (chatter-guard.ts). */
  const chatter = new ChatterGuard();
  const raiseCode = (key: string, at: number, request: () => RaiseRequest) => {
    if (writer.isActive(key)) return chatter.present(key, at);
    chatter.raised(key, at);
    writer.raise(request());
  };
  const clearCode = (key: string, at: number) => {
    if (writer.isActive(key) && chatter.mayClear(key, at)) writer.clear(key, at);
  };

  const builtIn = (p: StoredPoint, c: CatalogRow) => {
    const intervalMs = Math.max(1, c.poll_interval_s) * 1000;
    if ((STATUS_KEYS as readonly string[]).includes(c.key)) {
      for (const [code, alarm] of STATUS_ALARMS) {
        const key = `st:${p.device_id}:${code}`;
        if (p.value === code)
          raiseCode(key, p.ts, () => deviceRaise(p, key, 'device_status', alarm, { code }));
        else clearCode(key, p.ts);
      }
    } else if ((EVENT_KEYS as readonly string[]).includes(c.key)) {
      const set = new Set(eventBitsSet(p.value));
      for (const [bit, alarm] of EVENT_BIT_ALARMS) {
        const key = `evt:${p.device_id}:${bit}`;
        if (set.has(bit)) raiseCode(key, p.ts, () => deviceRaise(p, key, 'device_status', alarm, { bit }));
        else clearCode(key, p.ts);
      }
    } else if (VENDOR_ALARM_WORDS.has(c.key)) {
      // A vendor's alarm bit field (register templates): each set bit is that vendor's alarm, its own key.
      const word = VENDOR_ALARM_WORDS.get(c.key)!;
      const raw = Number.isFinite(p.value) && p.value >= 0 ? Math.trunc(p.value) : 0;
      for (const [bit, alarm] of word.bits) {
        const key = `vendor:${p.device_id}:${c.key}:${bit}`;
        if (Math.floor(raw / 2 ** bit) % 2 === 1) {
          raiseCode(key, p.ts, () =>
            deviceRaise(p, key, 'device_status', alarm, { vendor: word.vendor, code: alarm.code }),
          );
        } else clearCode(key, p.ts);
      }
    } else if (VENDOR_ALARM_CODES.has(c.key)) {
      // A vendor's fault-code register (Sungrow's): the listed code it holds is that vendor's alarm, active
      // while the register holds it; another code or 0 clears it.
      const register = VENDOR_ALARM_CODES.get(c.key)!;
      for (const [code, alarm] of register.codes) {
        const key = `vendor:${p.device_id}:${c.key}:c${code}`;
        if (p.value === code) {
          raiseCode(key, p.ts, () =>
            deviceRaise(p, key, 'device_status', alarm, { vendor: register.vendor, code }),
          );
        } else clearCode(key, p.ts);
      }
    } else if ((GRID_KEYS as readonly string[]).includes(c.key)) {
      const key = `grid:${p.device_id}`;
      if (p.value === 0) raiseCode(key, p.ts, () => deviceRaise(p, key, 'device_status', gridOutage));
      else clearCode(key, p.ts);
    } else if ((POWER_KEYS as readonly string[]).includes(c.key)) {
      remember(power, p, intervalMs);
    } else if ((IRRADIANCE_KEYS as readonly string[]).includes(c.key)) {
      remember(irradiance, p, intervalMs);
    }
  };

  const observe = (batch: readonly StoredPoint[]) => {
    if (stopped || !started) return;
    const t0 = performance.now();
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
    writer.flush();
    deps.onEvaluated?.('point', (performance.now() - t0) / 1000);
  };

  /** Plant-level conditions on the timer: no production in sunshine, and underperforming inverters. */
  const judgePlants = (now: number, only?: number) => {
    const thresholds = conditions();
    for (const plantId of new Set([...power.keys(), ...irradiance.keys()])) {
      if (only !== undefined && plantId !== only) continue;
      const { states, actions } = judgePlant(
        {
          plantId,
          powerKw: power.get(plantId) ?? new Map(),
          irradianceWm2: irradiance.get(plantId) ?? new Map(),
          ratedKw,
        },
        plantConditions,
        (key) => writer.isActive(key),
        now,
        thresholds,
      );
      for (const [key, state] of states) plantConditions.set(key, state);
      for (const a of actions) {
        if (a.kind === 'clear') writer.clear(a.key, a.at);
        else
          writer.raise({
            key: a.key,
            plant_id: a.plantId,
            device_id: a.deviceId,
            tag_id: null,
            source: a.source,
            rule_id: null,
            priority_id: a.priority,
            message: a.message,
            message_params: a.params,
            at: a.at,
          });
      }
    }
  };

  /**
   * A silent edge agent is its plant's communication loss: the plant's Modbus devices are polled by it alone,
   * so nothing of them arrives while it is silent. One alarm per agent, on the plant (no device), cleared by
   * its next report.
   */
  const judgeAgents = async (now: number, only?: number) => {
    if (!deps.edgeAgents) return;
    const silenceMs = options.edgeSilenceMs ?? EDGE_SILENCE_MS;
    const known = new Set<string>();
    for (const a of await deps.edgeAgents()) {
      if (only !== undefined && a.plant_id !== only) continue;
      const key = `edge:${a.plant_id}:${a.agent_id}`;
      known.add(key);
      if (now - a.last_report_at > silenceMs) {
        if (writer.isActive(key)) continue;
        writer.raise({
          key,
          plant_id: a.plant_id,
          device_id: null,
          tag_id: null,
          source: 'comm_loss',
          rule_id: null,
          priority_id: commLoss.priority,
          message: MSG.edgeAgentSilent,
          message_params: { agent: a.agent_id, minutes: Math.round(silenceMs / 60_000) },
          at: now,
        });
      } else writer.clear(key, now);
    }
    // An agent no longer listed (its plant deactivated or deleted) has nothing left to be silent about.
    if (only === undefined)
      for (const key of writer.activeKeys())
        if (key.startsWith('edge:') && !known.has(key)) writer.clear(key, now);
  };

  async function tick(now = deps.now(), plantId?: number): Promise<void> {
    if (!started || stopped) return;
    const t0 = performance.now();
    try {
      for (const l of rules.values())
        if (plantId === undefined || l.row.plant_id === plantId) judge(l, { kind: 'tick', now });
      judgePlants(now, plantId);
      await judgeAgents(now, plantId);
    } catch (error) {
      log.error({ err: error }, 'alarm timer evaluation failed');
    }
    writer.flush();
    deps.onEvaluated?.('tick', (performance.now() - t0) / 1000);
    await writer.idle();
  }

  const deviceState = (event: DeviceStateEvent) => {
    if (stopped || !started) return;
    const key = `comm:${event.deviceId}`;
    if (event.state === 'lost')
      writer.raise(
        deviceRaise(
          { plant_id: event.plantId, device_id: event.deviceId, signal_id: null, ts: event.at },
          key,
          'comm_loss',
          commLoss,
          { error: event.lastError },
        ),
      );
    else if (event.state === 'online') writer.clear(key, event.at);
    writer.flush();
  };

  /** Before start there is nothing loaded to reload: start reads the rules. */
  const reloadIfRunning = async (): Promise<void> => {
    if (!started || stopped) return;
    await reloadRules();
    await reloadCatalog();
    await writer.idle();
  };

  return {
    async start(start = {}) {
      if (started && !stopped) return;
      if (stopped) {
        // Started again (this node took the cluster's lease back): everything from the database, nothing
        // from the last run, so that no condition still active there is raised a second time.
        await writer.idle();
        stopped = false;
        started = false;
        for (const m of [rules, rulesBySignal, catalog, power, irradiance, ratedKw, plantConditions])
          m.clear();
      }
      log = start.log ?? log;
      await writer.resync();
      await reloadCatalog();
      started = true;
      await reloadRules();
      if (start.commStatesAtStart) {
        // Catch up with what the poller recorded while the engine was not running.
        const now = deps.now();
        for (const s of await deviceCommStates(deps.db)) {
          const key = `comm:${s.device_id}`;
          if (s.lost)
            writer.raise(
              deviceRaise(
                { plant_id: s.plant_id, device_id: s.device_id, signal_id: null, ts: now },
                key,
                'comm_loss',
                commLoss,
              ),
            );
          else writer.clear(key, now);
        }
        writer.flush();
      }
      if (start.listen === false) return;
      cleanups.push(deps.telemetry.onStored(observe));
      const timer = setInterval(() => void tick(), tickMs);
      timer.unref();
      const catalogTimer = setInterval(() => {
        reloadCatalog().catch((error: unknown) => log.error({ err: error }, 'alarm catalog reload failed'));
      }, options.catalogReloadMs ?? 60_000);
      catalogTimer.unref();
      cleanups.push(
        () => clearInterval(timer),
        () => clearInterval(catalogTimer),
      );
    },
    observe,
    deviceState,
    async reloadRules() {
      await reloadIfRunning();
      // Whether or not this engine runs: the one on the lease holder may be another node's.
      deps.announceRules?.();
    },
    reloadRulesFromPeer: reloadIfRunning,
    tick,
    async reconcile({ prefixes, raises, clearedAt, now }) {
      if (!started || stopped) return;
      const wanted = new Set(raises.map((r) => r.key));
      for (const key of writer.activeKeys())
        if (!wanted.has(key) && prefixes.some((p) => key.startsWith(p)))
          writer.clear(key, clearedAt?.get(key) ?? now);
      for (const r of raises) writer.raise(r);
      writer.flush();
      await writer.idle();
    },
    idle: () => writer.idle(),
    stats: () => ({ rules: rules.size, points, evaluations }),
    async stop() {
      stopped = true;
      for (const cleanup of cleanups.splice(0)) cleanup();
      await writer.idle();
    },
    replayer: () =>
      createAlarmEngine(
        // No edge agents: their silence is judged on the console's clock now, never in a replayed past.
        {
          ...deps,
          publisher: SILENT_PUBLISHER,
          onEvaluated: undefined,
          announceRules: undefined,
          edgeAgents: undefined,
        },
        options,
      ),
  };
}
