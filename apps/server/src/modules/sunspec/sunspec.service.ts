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
import { ModbusExceptionError, ModbusTcpClient, ModbusTransportError } from '@solar/modbus';
import type { AppContext } from '../../context';
import { found, type Actor } from '../../lib/actor';
import { recordAudit } from '../audit';
import { addLayoutSignals } from '../signals';
import { answerAtDeadline } from '../../lib/device-networks';
import { HttpError, conflict } from '../../lib/http-errors';
import { scopeOf } from '../../lib/scope';
import * as repo from './sunspec.repository';

type ApplyBody = z.output<typeof sunspecApplyBody>;

/**
 * A device that could not be read, whatever the reason: refused address, closed or silent port, something
 * that is not Modbus. The client always gets the same 502 at the same moment; the reason is for the log.
 */
export class DeviceFailure extends HttpError {
  constructor(readonly reason: unknown) {
    super(502, E.deviceUnreachable);
  }
}

/** SunSpec: the shipped templates, discovery of a device's models, and signals created from them. */
export class SunSpecService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now' | 'config' | 'deviceNetworks'>) {}

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
      const { created, skipped } = await addLayoutSignals(trx, id, signals, now);
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

  /**
   * The device, if it may be asked (discovery: Modbus TCP with an address) or given a standard layout
   * (any Modbus device: a Modbus RTU one reads the same register maps through its bus).
   */
  private async modbusDevice(actor: Actor, id: number, needsAddress = true) {
    const device = found(await repo.findDeviceConnection(this.ctx.db, scopeOf(actor), id));
    const layoutOnly = !needsAddress && device.protocol === 'modbus_rtu';
    if (
      (device.protocol !== 'modbus_tcp' && !layoutOnly) ||
      (needsAddress && (!device.ip || device.port === null))
    ) {
      throw conflict(E.notModbusTcp);
    }
    return device;
  }

  /**
   * Walks the device's SunSpec chain; 422 without SunS. Every failure to read is a DeviceFailure answered
   * when the deadline has passed since the start, and a device silent until then is given up at it, so
   * closed, silent and non-Modbus ports cannot be told apart (docs/security.md, "Device networks").
   */
  private async walk(device: { ip: string | null; port: number | null; slave_id: number | null }) {
    const startedMs = performance.now();
    const deadlineMs = this.ctx.config.deviceNetworks.modbusDeadlineMs;
    const networks = this.ctx.deviceNetworks;
    const client = new ModbusTcpClient({
      host: device.ip!,
      port: device.port!,
      timeoutMs: deadlineMs,
      resolveAddress: async (host, port) => (await networks.target(host, port)).address,
    });
    let answered = false;
    const cutoff = setTimeout(() => {
      if (!answered) client.close();
    }, deadlineMs);
    let transport: ModbusTransportError | undefined;
    const unit = device.slave_id ?? 1;
    let result: SunSpecDiscovery | null;
    try {
      result = await discoverSunSpec(async (address, count) => {
        // A device that does not answer at the first base will not at the next ones either.
        if (transport) throw transport;
        try {
          const registers = await client.readHoldingRegisters(unit, address, count);
          answered = true;
          return registers;
        } catch (error) {
          if (error instanceof ModbusExceptionError) answered = true;
          if (error instanceof ModbusTransportError) transport = error;
          throw error;
        }
      });
      if (transport) throw transport;
    } catch (error) {
      await answerAtDeadline(startedMs, deadlineMs);
      throw new DeviceFailure(error);
    } finally {
      clearTimeout(cutoff);
      client.close();
    }
    if (!result) throw new HttpError(422, E.notSunSpec);
    return result;
  }
}
