import { createHash } from 'node:crypto';
import {
  EDGE_AGENT_STALE_MS,
  EDGE_CLOCK_OFFSET_BOUND_MS,
  localWallTime,
  type EdgeAgentHealthItem,
  type EdgeConfigAnswer,
  type EdgeDevice,
  type EdgeHealthAnswer,
  type EdgeSignal,
} from '@solar/shared';
import type { z } from 'zod';
import { parseStoredValueMap } from '@solar/modbus';
import type { edgeHealthBody } from '@solar/shared';
import type { AppContext } from '../../context';
import { forbidden, notFound } from '../../lib/http-errors';
import type { Scope } from '../../lib/scope';
import type { IngestPrincipal } from '../../plugins/auth';
import { upsertReportedFlags } from '../data-quality';
import * as repo from './edge.repository';

type HealthReport = z.output<typeof edgeHealthBody>;

const iso = (ms: number | bigint | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** The plant of a plant ingest key; a device key or a user's token is refused (the agent serves a plant). */
export function plantOfKey(principal: IngestPrincipal | null): number {
  if (!principal || principal.plantId === null) throw forbidden();
  return principal.plantId;
}

/**
 * The console's side of a plant's edge agent (docs/edge.md): the configuration it polls by, and its health
 * reports, which measure its clock and feed the admin panel, the silence alarm (the alarm engine reads
 * `readAgentReports`) and the `agent_clock_offset` data-quality flags.
 */
export class EdgeService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now'>) {}

  /** The plant's active Modbus devices with their polled signals, and a hash of exactly that content. */
  async config(plantId: number): Promise<EdgeConfigAnswer> {
    const plant = await repo.findPlant(this.ctx.db, plantId);
    if (!plant) throw notFound();
    const devices = await repo.readEdgeDevices(this.ctx.db, plantId);
    const signals = await repo.readEdgeSignals(
      this.ctx.db,
      devices.map((d) => d.id),
    );
    const signalsOf = new Map<number, EdgeSignal[]>();
    for (const s of signals) {
      const list = signalsOf.get(s.device_id) ?? [];
      list.push({
        id: s.id,
        key: s.key,
        data_type: s.data_type as EdgeSignal['data_type'],
        register_type: s.register_type as EdgeSignal['register_type'],
        address: Number(s.address),
        // The poller's default for a signal saved without one (packages/modbus/src/register-map.ts).
        word_order: (s.word_order ?? 'big') as EdgeSignal['word_order'],
        scale: Number(s.scale),
        scale_factor_address: s.scale_factor_address === null ? null : Number(s.scale_factor_address),
        sunspec_type: s.sunspec_type,
        value_map: parseStoredValueMap(s.value_map),
        is_counter: s.is_counter === 1,
      });
      signalsOf.set(s.device_id, list);
    }
    const edgeDevices: EdgeDevice[] = devices.map((d) => ({
      id: d.id,
      name: d.name,
      type: d.type as EdgeDevice['type'],
      protocol: d.protocol as EdgeDevice['protocol'],
      ip: d.ip,
      port: d.port,
      slave_id: d.slave_id,
      baud_rate: d.baud_rate,
      serial_path: d.serial_path,
      poll_interval_s: d.poll_interval_s,
      signals: signalsOf.get(d.id) ?? [],
    }));
    const content = { plant_id: plant.id, plant_time_zone: plant.time_zone, devices: edgeDevices };
    // The content in a fixed order (devices and signals by id, keys as written above): equal content, equal hash.
    const config_version = createHash('sha256').update(JSON.stringify(content)).digest('hex').slice(0, 32);
    return { ...content, config_version };
  }

  /**
   * Stores the report, measures the agent's clock against the console's, and opens, extends or closes the
   * `agent_clock_offset` flags of the plant's polled devices while the offset is beyond the bound.
   */
  async health(plantId: number, report: HealthReport): Promise<EdgeHealthAnswer> {
    const receivedAt = this.ctx.now();
    const config = await this.config(plantId);
    const offset = Math.round(report.sent_at - receivedAt);
    const before = await repo.findAgent(this.ctx.db, plantId, report.agent_id);
    const beyond = Math.abs(offset) > EDGE_CLOCK_OFFSET_BOUND_MS;
    const openSince = before?.clock_flag_from == null ? null : Number(before.clock_flag_from);
    let flagFrom: number | null = null;
    if (beyond || openSince !== null) {
      const from = openSince ?? receivedAt;
      await upsertReportedFlags(
        this.ctx.db,
        {
          plantId,
          reason: 'agent_clock_offset',
          keyPrefix: `agent_clock:${report.agent_id}`,
          deviceIds: config.devices.map((d) => d.id),
          localDay: localWallTime(from, config.plant_time_zone).slice(0, 10),
          fromMs: from,
          toMs: receivedAt,
          detail: { offset_ms: offset, bound_ms: EDGE_CLOCK_OFFSET_BOUND_MS, open: beyond ? 1 : 0 },
        },
        receivedAt,
      );
      flagFrom = beyond ? from : null;
    }
    await repo.saveAgent(this.ctx.db, {
      plant_id: plantId,
      agent_id: report.agent_id,
      version: report.version,
      last_report_at: receivedAt,
      clock_offset_ms: offset,
      queue_depth: report.queue_depth,
      oldest_unsent_at: report.oldest_unsent_at ?? null,
      last_sent_at: report.last_sent_at ?? null,
      dropped_total: report.dropped_total,
      poll_failures: report.poll_failures,
      uptime_s: report.uptime_s,
      clock_flag_from: flagFrom,
    });
    return {
      server_time: new Date(receivedAt).toISOString(),
      clock_offset_ms: offset,
      config_version: config.config_version,
    };
  }
}

/** The agents of the plants in reach for the collection health, problems (stale, clock) first. */
export async function agentsHealth(
  ctx: Pick<AppContext, 'db'>,
  scope: Scope,
  now: number,
): Promise<EdgeAgentHealthItem[]> {
  const rows = await repo.readAgents(ctx.db, scope);
  const items = rows.map((r): EdgeAgentHealthItem => {
    const offset = Number(r.clock_offset_ms);
    return {
      plant_id: r.plant_id,
      plant_name: r.plant_name,
      plant_time_zone: r.time_zone,
      agent_id: r.agent_id,
      version: r.version,
      last_report_at: new Date(Number(r.last_report_at)).toISOString(),
      clock_offset_ms: offset,
      queue_depth: Number(r.queue_depth),
      oldest_unsent_at: iso(r.oldest_unsent_at),
      last_sent_at: iso(r.last_sent_at),
      dropped_total: Number(r.dropped_total),
      poll_failures: Number(r.poll_failures),
      uptime_s: Number(r.uptime_s),
      stale: now - Number(r.last_report_at) > EDGE_AGENT_STALE_MS,
      clock_problem: Math.abs(offset) > EDGE_CLOCK_OFFSET_BOUND_MS,
    };
  });
  const problem = (a: EdgeAgentHealthItem) => Number(a.stale || a.clock_problem);
  return items.sort((a, b) => problem(b) - problem(a));
}
