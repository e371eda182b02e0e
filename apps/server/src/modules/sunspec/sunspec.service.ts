import {
  E,
  SUNSPEC_MODELS,
  SUNSPEC_TEMPLATES,
  discoverSunSpec,
  expandModels,
  type SunSpecDiscovery,
  type SunspecApplyAnswer,
  type SunspecDiscoverAnswer,
  type SunspecTemplatesAnswer,
  type sunspecApplyBody,
} from '@solar/shared';
import type { z } from 'zod';
import { ModbusTcpClient, ModbusTransportError } from '../../collectors/modbus/modbus-client';
import type { AppContext } from '../../context';
import { found, type Actor } from '../../lib/actor';
import { recordAudit } from '../../lib/audit';
import { HttpError, conflict } from '../../lib/http-errors';
import { scopeOf } from '../../lib/scope';
import * as repo from './sunspec.repository';

type ApplyBody = z.output<typeof sunspecApplyBody>;

/** Wait per Modbus answer during discovery. */
const DISCOVERY_TIMEOUT_MS = 3000;

/** SunSpec: the shipped templates, discovery of a device's models, and signals created from them. */
export class SunSpecService {
  constructor(
    private readonly ctx: Pick<AppContext, 'db' | 'now'>,
    private readonly timeoutMs = DISCOVERY_TIMEOUT_MS,
  ) {}

  templates(): SunspecTemplatesAnswer {
    return {
      templates: Object.entries(SUNSPEC_TEMPLATES).map(([id, t]) => ({
        id,
        device_type: t.deviceType,
        models: [...t.models],
        required: [...t.required],
      })),
      models: Object.values(SUNSPEC_MODELS).map((m) => ({
        id: m.id,
        name: m.name,
        label: m.label,
        signals: expandModels([m.id]).map((s) => ({
          key: s.key,
          name: s.name,
          unit: s.unit,
          is_counter: s.is_counter,
          point: s.point,
        })),
      })),
    };
  }

  async discover(actor: Actor, id: number): Promise<SunspecDiscoverAnswer> {
    const device = await this.modbusDevice(actor, id);
    const found = await this.walk(device);
    return {
      base_address: found.baseAddress,
      models: found.models.map((m) => ({
        ...m,
        label: SUNSPEC_MODELS[m.id]?.label ?? null,
        supported: SUNSPEC_MODELS[m.id] !== undefined,
      })),
    };
  }

  /** Creates the signals of the models; keys the device already has are left alone. */
  async apply(actor: Actor, id: number, body: ApplyBody): Promise<SunspecApplyAnswer> {
    const device = await this.modbusDevice(actor, id, body.discovered === true);
    let models: number[];
    let signals: ReturnType<typeof expandModels>;
    if (body.discovered) {
      const chain = (await this.walk(device)).models;
      models = chain.map((m) => m.id).filter((m) => SUNSPEC_MODELS[m] !== undefined);
      signals = expandModels(models, { chain });
    } else {
      models = body.models ?? [];
      signals = expandModels(models, { baseAddress: body.base_address, mpptInputs: body.mppt_inputs });
    }
    return this.ctx.db.transaction().execute(async (trx) => {
      const now = this.ctx.now();
      const existing = await repo.signalKeysOf(trx, id);
      const created: SunspecApplyAnswer['created'] = [];
      const skipped: string[] = [];
      for (const s of signals) {
        if (existing.has(s.key)) {
          skipped.push(s.key);
          continue;
        }
        existing.add(s.key);
        const signalId = await repo.insertSignal(
          trx,
          {
            device_id: id,
            key: s.key,
            name: s.name,
            unit: s.unit,
            data_type: s.data_type,
            register_type: s.register_type,
            address: s.address,
            word_order: s.word_order,
            scale: s.scale,
            scale_factor_address: s.scale_factor_address,
            sunspec_type: s.sunspec_type,
            is_counter: s.is_counter,
          },
          now,
        );
        created.push({ id: signalId, key: s.key });
      }
      await recordAudit(trx, {
        userId: actor.userId,
        action: 'sunspec_apply',
        entity: 'device',
        entityId: id,
        after: { models, created: created.map((c) => c.key), skipped },
        ip: actor.ip,
        at: now,
      });
      return { created, skipped, models };
    });
  }

  private async modbusDevice(actor: Actor, id: number, needsAddress = true) {
    const device = found(await repo.findDeviceConnection(this.ctx.db, scopeOf(actor), id));
    if (device.protocol !== 'modbus_tcp' || (needsAddress && (!device.ip || device.port === null))) {
      throw conflict(E.notModbusTcp);
    }
    return device;
  }

  /** Walks the device's SunSpec chain: 504 when it does not answer, 502 when it cannot be reached, 422 without SunS. */
  private async walk(device: { ip: string | null; port: number | null; slave_id: number | null }) {
    const client = new ModbusTcpClient({ host: device.ip!, port: device.port!, timeoutMs: this.timeoutMs });
    let transport: ModbusTransportError | undefined;
    const unit = device.slave_id ?? 1;
    let result: SunSpecDiscovery | null;
    try {
      result = await discoverSunSpec(async (address, count) => {
        // A device that does not answer at the first base will not at the next ones either.
        if (transport) throw transport;
        try {
          return await client.readHoldingRegisters(unit, address, count);
        } catch (error) {
          if (error instanceof ModbusTransportError) transport = error;
          throw error;
        }
      });
    } catch (error) {
      if (transport) throw this.transportProblem(transport);
      throw new HttpError(502, E.deviceUnreachable, {
        device: [error instanceof Error ? error.message.slice(0, 200) : 'error'],
      });
    } finally {
      client.close();
    }
    if (transport) throw this.transportProblem(transport);
    if (!result) throw new HttpError(422, E.notSunSpec);
    return result;
  }

  private transportProblem(error: ModbusTransportError): HttpError {
    return error.kind === 'timeout'
      ? new HttpError(504, E.deviceTimeout)
      : new HttpError(502, E.deviceUnreachable);
  }
}
