import {
  E,
  REGISTER_TEMPLATES,
  V,
  defaultBounds,
  applyScale,
  decodeRegisters,
  expandRegisterTemplate,
  registerCount,
  registerTemplateSchema,
  type RegisterTemplate,
  type RegisterTemplateApplyAnswer,
  type RegisterTemplateCheckAnswer,
  type RegisterTemplateEntry,
  type RegisterTemplatesAnswer,
  type RegisterValueType,
  type companyRegisterTemplateBody,
  type registerTemplateApplyBody,
} from '@solar/shared';
import type { z } from 'zod';
import {
  ModbusExceptionError,
  ModbusTcpClient,
  RtuBus,
  SerialRtuTransport,
  TcpRtuTransport,
  type ModbusRegisterClient,
} from '@solar/modbus';
import type { AppContext } from '../../context';
import { found, type Actor } from '../../lib/actor';
import { answerAtDeadline } from '../../lib/device-networks';
import { HttpError, badRequest, conflict, forbidden, notFound } from '../../lib/http-errors';
import { companyReach, scopeOf } from '../../lib/scope';
import { auditedRemove, auditedSave, recordAudit } from '../audit';
import { addLayoutSignals } from '../signals';
import * as repo from './register-templates.repository';

type ApplyBody = z.output<typeof registerTemplateApplyBody>;
type TemplateBody = z.output<typeof companyRegisterTemplateBody>;
type Device = NonNullable<Awaited<ReturnType<typeof repo.findDevice>>>;

/**
 * A device that could not be read, whatever the reason: refused address, closed or silent port, something
 * that is not Modbus. The client always gets the same 502 at the same moment; the reason is for the log
 * (as the SunSpec discovery answers, docs/security.md, "Device networks").
 */
export class DeviceFailure extends HttpError {
  constructor(readonly reason: unknown) {
    super(502, E.deviceUnreachable);
  }
}

/** Register types and value types a register check reads (those the poller reads). */
const READABLE_REGISTERS = new Set(['holding', 'input']);
const UNREADABLE_TYPES = new Set(['bool', 'string']);

const entryOf = (row: repo.TemplateRow): RegisterTemplateEntry => ({
  source: 'company',
  id: row.id,
  company_id: row.company_id,
  template: registerTemplateSchema.parse(JSON.parse(row.template)),
  updated_at: Number(row.updated_at),
});

/**
 * Register-map templates of non-SunSpec devices: the shipped JSON and a company's own (stored, edited,
 * exported and imported as the same JSON), a device's signals made from one, and a check of a template
 * against the device (each mapped register read once).
 */
export class RegisterTemplatesService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now' | 'config' | 'deviceNetworks'>) {}

  async list(actor: Actor): Promise<RegisterTemplatesAnswer> {
    const shipped = Object.values(REGISTER_TEMPLATES).map((template): RegisterTemplateEntry => ({
      source: 'shipped',
      id: null,
      company_id: null,
      template,
      updated_at: null,
    }));
    const own = await repo.listTemplates(this.ctx.db, scopeOf(actor));
    return { templates: [...shipped, ...own.map(entryOf)] };
  }

  /** A company template as its JSON file (the export; POST of it imports it again). */
  async get(actor: Actor, id: number): Promise<RegisterTemplate> {
    const row = found(await repo.findTemplate(this.ctx.db, scopeOf(actor), id));
    return entryOf(row).template;
  }

  /**
   * Creates (id 0) or changes a company template. The company is the caller's own; the administrator
   * names it (`companyId`). Only a user who reaches the whole company may change its templates.
   */
  async save(
    actor: Actor,
    id: number,
    template: TemplateBody,
    companyId: number | undefined,
  ): Promise<RegisterTemplateEntry> {
    const scope = scopeOf(actor);
    const values: repo.TemplateValues = {
      slug: template.id,
      vendor: template.vendor,
      label: template.label,
      device_type: template.device_type,
      template: JSON.stringify(template),
    };
    let company: number | undefined;
    if (id === 0) {
      company = scope.all ? companyId : (scope.companyId ?? undefined);
      if (company === undefined) throw badRequest({ company_id: [V.required] });
      if (!scope.all && companyId !== undefined && companyId !== company) throw notFound();
      if (!(await repo.companyExists(this.ctx.db, company))) throw notFound();
    }
    const row = await auditedSave(this.ctx, actor, id, {
      entity: 'register_template',
      find: (trx, rowId) => repo.findTemplate(trx, scope, rowId),
      check: async (trx, before) => {
        const owner = before?.company_id ?? company!;
        if (companyReach(scope, owner) !== 'whole') throw forbidden();
        if (REGISTER_TEMPLATES[template.id] || (await repo.slugTaken(trx, owner, template.id, id))) {
          throw conflict(E.templateIdTaken, { id: [E.templateIdTaken] });
        }
      },
      insert: (trx, now) => repo.insertTemplate(trx, company!, values, actor.userId, now),
      update: (trx, rowId, _before, now) => repo.updateTemplate(trx, rowId, values, actor.userId, now),
      onUnique: () => conflict(E.templateIdTaken, { id: [E.templateIdTaken] }),
    });
    return entryOf(row);
  }

  async remove(actor: Actor, id: number): Promise<void> {
    const scope = scopeOf(actor);
    await auditedRemove(this.ctx, actor, id, {
      entity: 'register_template',
      find: (trx, rowId) => repo.findTemplate(trx, scope, rowId),
      check: (_trx, before) => {
        if (companyReach(scope, before.company_id) !== 'whole') throw forbidden();
      },
      remove: (trx, rowId) => repo.deleteTemplate(trx, rowId),
    });
  }

  /** Creates the template's signals on a Modbus device of the template's type; keys it has are left alone. */
  async apply(actor: Actor, id: number, body: ApplyBody): Promise<RegisterTemplateApplyAnswer> {
    const { template, strings, signals } = await this.resolve(actor, id, body);
    return this.ctx.db.transaction().execute(async (trx) => {
      const now = this.ctx.now();
      const { created, skipped } = await addLayoutSignals(trx, id, signals, now);
      await recordAudit(trx, {
        userId: actor.userId,
        action: 'register_template_apply',
        entity: 'device',
        entityId: id,
        after: {
          template: template.id,
          template_id: body.template_id ?? null,
          imported: body.template_json !== undefined,
          strings: strings ?? null,
          created: created.map((c) => c.key),
          skipped,
        },
        ip: actor.ip,
        at: now,
      });
      return { created, skipped };
    });
  }

  /**
   * Reads each register the template maps once from the device and judges it: answered within the unit's
   * plausible range, a Modbus exception (the register the device refuses), or a value outside the range.
   * A device that cannot be reached is one DeviceFailure, answered at the deadline (see DeviceFailure).
   */
  async check(actor: Actor, id: number, body: ApplyBody): Promise<RegisterTemplateCheckAnswer> {
    const { device, signals } = await this.resolve(actor, id, body);
    const startedMs = performance.now();
    const deadlineMs = this.ctx.config.deviceNetworks.modbusDeadlineMs;
    const unit = device.slave_id ?? 1;
    let client: ModbusRegisterClient | undefined;
    const registers: RegisterTemplateCheckAnswer['registers'] = [];
    try {
      client = this.open(device, deadlineMs);
      for (const signal of signals) {
        const bounds = defaultBounds(signal.unit, device.rated_power_kw);
        const base = {
          key: signal.key,
          name: signal.name,
          unit: signal.unit,
          register_type: signal.register_type,
          address: signal.address,
          data_type: signal.data_type,
          exception_code: null,
          value: null,
          min: bounds.min,
          max: bounds.max,
        };
        const type = signal.data_type as RegisterValueType;
        if (!READABLE_REGISTERS.has(signal.register_type) || UNREADABLE_TYPES.has(type)) {
          registers.push({ ...base, outcome: 'not_read' });
          continue;
        }
        let words: number[];
        try {
          words = await client.readRegisters(
            signal.register_type as 'holding' | 'input',
            unit,
            signal.address,
            registerCount(type),
          );
        } catch (error) {
          if (!(error instanceof ModbusExceptionError)) throw error;
          registers.push({ ...base, outcome: 'exception', exception_code: error.exceptionCode });
          continue;
        }
        const raw = decodeRegisters(words, type, { wordOrder: signal.word_order });
        const value = applyScale(raw, { scale: signal.scale });
        const outside =
          value === null ||
          !Number.isFinite(value) ||
          (bounds.min !== null && value < bounds.min) ||
          (bounds.max !== null && value > bounds.max);
        registers.push({ ...base, value, outcome: outside ? 'out_of_range' : 'ok' });
      }
    } catch (error) {
      await answerAtDeadline(startedMs, deadlineMs);
      throw new DeviceFailure(error);
    } finally {
      client?.close();
    }
    return { registers };
  }

  /** A client of its own for the device (Modbus TCP, or RTU through a gateway or a serial port), every address checked. */
  private open(device: Device, timeoutMs: number): ModbusRegisterClient {
    const networks = this.ctx.deviceNetworks;
    const resolveAddress = async (host: string, port: number) => (await networks.target(host, port)).address;
    if (device.protocol === 'modbus_tcp') {
      if (!device.ip || device.port === null) throw new Error('Modbus TCP device without an address');
      return new ModbusTcpClient({ host: device.ip, port: device.port, timeoutMs, resolveAddress });
    }
    const line = { baudRate: device.baud_rate ?? 9600 };
    const serial = device.serial_path;
    if (serial === null && (!device.ip || device.port === null)) {
      throw new Error('Modbus RTU device without a gateway or a serial port');
    }
    return new RtuBus({
      transport:
        serial !== null
          ? new SerialRtuTransport({
              path: serial,
              ...line,
              resolvePath: (path) => networks.serialPort(path),
            })
          : new TcpRtuTransport({
              host: device.ip!,
              port: device.port!,
              connectTimeoutMs: timeoutMs,
              resolveAddress,
            }),
      line,
      timeoutMs,
      retries: 0,
      endFramesBySilence: serial !== null,
    });
  }

  /** The device, the template the body names and the signals it gives the device; the checks apply and check share. */
  private async resolve(actor: Actor, id: number, body: ApplyBody) {
    const scope = scopeOf(actor);
    const device = found(await repo.findDevice(this.ctx.db, scope, id));
    let template: RegisterTemplate;
    if (body.template_id !== undefined) {
      const row = await repo.findTemplate(this.ctx.db, scope, body.template_id);
      // A company's template is for that company's devices only.
      if (!row || row.company_id !== device.company_id) throw notFound();
      template = entryOf(row).template;
    } else {
      // A shipped template by its id, or one imported with the request (the schema checked both).
      template = body.template_json ?? REGISTER_TEMPLATES[body.template!]!;
    }
    if (device.protocol !== 'modbus_tcp' && device.protocol !== 'modbus_rtu') throw conflict(E.notModbus);
    if (device.type !== template.device_type) throw conflict(E.templateDeviceType);
    const strings = body.strings ?? template.strings?.default;
    if (strings !== undefined && template.strings && strings > template.strings.max) {
      throw badRequest({ strings: [V.outOfRange] });
    }
    const signals = expandRegisterTemplate(template, strings);
    return { device, template, strings, signals };
  }
}
