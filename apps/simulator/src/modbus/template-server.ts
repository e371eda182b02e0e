/**
 * A device of any shipped register template (`@solar/shared` REGISTER_TEMPLATES: a Sungrow SG CX inverter,
 * a Janitza meter…) over Modbus: each unit holds the template's registers, holding and input ones apart,
 * zero from the template's first to its last register of each type as an unused register reads, and
 * answers function 03 or 04 for them. Values are set by the template's signal keys in our units, so a test
 * can put a vendor's state or fault code on the wire and see how the console reads it. A device whose manual
 * documents more than its template reads (a whole block that never fails a read, a function it refuses)
 * says so in `registerBlocks`, as the Huawei SUN2000 does (`huawei-server.ts`).
 */
import {
  REGISTER_TEMPLATES,
  encodeRegisters,
  expandRegisterTemplate,
  registerCount,
  type RegisterTemplateSignal,
  type RegisterValueType,
} from '@solar/shared';
import {
  FUNCTION_READ_HOLDING_REGISTERS,
  FUNCTION_READ_INPUT_REGISTERS,
  MODBUS_EXCEPTIONS,
  exceptionPdu,
  readRegistersAnswer,
} from './frame';
import { serveModbus, type ModbusTransport } from './serve';
import type { ModbusHandler } from './tcp-server';

export interface TemplateServer {
  port: number;
  /** Set register values by the template's signal keys, in our units (codes and states as they are). */
  setValues(unitId: number, values: Record<string, number>): void;
  /** false: the unit stops answering. */
  setOnline(unitId: number, online: boolean): void;
  close(): Promise<void>;
}

type RegisterType = 'holding' | 'input';

/** The registers a unit answers for one register type, first to last inclusive. */
export interface RegisterBlock {
  first: number;
  last: number;
}

export interface TemplateServerOptions {
  templateId: string;
  host?: string;
  port?: number;
  unitIds: readonly number[];
  transport?: ModbusTransport;
  /**
   * Per register type, the block a unit answers instead of the template's first to last register of that
   * type, or null where the device refuses the function (exception 01, illegal function).
   */
  registerBlocks?: Partial<Record<RegisterType, RegisterBlock | null>>;
}

interface TemplateUnit {
  online: boolean;
  /** A type without an image is a function the device refuses. */
  images: Partial<Record<RegisterType, Map<number, number>>>;
}

/** Zero registers from `first` to `last`, as an unused register reads. */
function zeroImage({ first, last }: RegisterBlock): Map<number, number> {
  const image = new Map<number, number>();
  for (let a = first; a <= last; a++) image.set(a, 0);
  return image;
}

/** Starts a Modbus server answering as devices of the shipped template `templateId` at the given unit ids. */
export async function startTemplateServer(options: TemplateServerOptions): Promise<TemplateServer> {
  const template = REGISTER_TEMPLATES[options.templateId];
  if (!template) throw new RangeError(`No shipped template ${options.templateId}`);
  // A signal read through a value map shares its register with the raw signal, which is the one written.
  const signals = new Map<string, RegisterTemplateSignal>(
    expandRegisterTemplate(template, template.strings?.max)
      .filter((s) => !s.value_map)
      .map((s) => [s.key, s]),
  );
  const templateBlock = (type: RegisterType): RegisterBlock => {
    const of = [...signals.values()].filter((s) => s.register_type === type);
    return {
      first: Math.min(...of.map((s) => s.address)),
      last: Math.max(...of.map((s) => s.address + registerCount(s.data_type as RegisterValueType) - 1)),
    };
  };
  const imageOf = (type: RegisterType) => {
    const block = options.registerBlocks?.[type];
    if (block === null) return undefined;
    return zeroImage(block ?? templateBlock(type));
  };
  const units = new Map<number, TemplateUnit>();
  for (const unitId of options.unitIds) {
    if (!Number.isInteger(unitId) || unitId < 0 || unitId > 255 || units.has(unitId)) {
      throw new RangeError(`Unit id ${unitId} is outside 0…255 or used twice`);
    }
    units.set(unitId, { online: true, images: { holding: imageOf('holding'), input: imageOf('input') } });
  }
  const unitOf = (unitId: number) => {
    const unit = units.get(unitId);
    if (!unit) throw new RangeError(`No unit ${unitId}`);
    return unit;
  };
  const transport = options.transport ?? { kind: 'tcp' };
  const handler: ModbusHandler = (unitId, pdu) => {
    const unit = units.get(unitId);
    const functionCode = pdu.readUInt8(0);
    if (!unit) {
      return transport.kind === 'rtu-serial'
        ? null
        : exceptionPdu(functionCode, MODBUS_EXCEPTIONS.GATEWAY_TARGET_FAILED);
    }
    if (!unit.online) return null;
    const image =
      functionCode === FUNCTION_READ_HOLDING_REGISTERS
        ? unit.images.holding
        : functionCode === FUNCTION_READ_INPUT_REGISTERS
          ? unit.images.input
          : undefined;
    if (!image) return exceptionPdu(functionCode, MODBUS_EXCEPTIONS.ILLEGAL_FUNCTION);
    return readRegistersAnswer(functionCode, pdu, image);
  };
  const server = await serveModbus(transport, options, handler);
  return {
    port: server.port,
    setValues: (unitId, values) => {
      const unit = unitOf(unitId);
      for (const [key, value] of Object.entries(values)) {
        const signal = signals.get(key);
        if (!signal) throw new RangeError(`${template.id} has no signal ${key}`);
        const image = unit.images[signal.register_type === 'input' ? 'input' : 'holding'];
        if (!image) throw new RangeError(`${template.id} refuses the registers of ${key}`);
        const raw = Number.isFinite(value) ? Math.round(value / signal.scale) : 0;
        encodeRegisters(raw, signal.data_type, signal.word_order).forEach((r, i) =>
          image.set(signal.address + i, r),
        );
      }
    },
    setOnline: (unitId, online) => {
      unitOf(unitId).online = online;
    },
    close: () => server.close(),
  };
}
