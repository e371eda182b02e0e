/**
 * A device of any shipped register template (`@solar/shared` REGISTER_TEMPLATES: a Sungrow SG CX inverter,
 * a Janitza meter…) over Modbus: each unit holds the template's registers, holding and input ones apart,
 * zero from the template's first to its last register of each type as an unused register reads, and
 * answers function 03 or 04 for them. Values are set by the template's signal keys in our units, so a test
 * can put a vendor's state or fault code on the wire and see how the console reads it.
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

interface TemplateUnit {
  online: boolean;
  images: { holding: Map<number, number>; input: Map<number, number> };
}

/** Starts a Modbus server answering as devices of the shipped template `templateId` at the given unit ids. */
export async function startTemplateServer(options: {
  templateId: string;
  host?: string;
  port?: number;
  unitIds: readonly number[];
  transport?: ModbusTransport;
}): Promise<TemplateServer> {
  const template = REGISTER_TEMPLATES[options.templateId];
  if (!template) throw new RangeError(`No shipped template ${options.templateId}`);
  // A signal read through a value map shares its register with the raw signal, which is the one written.
  const signals = new Map<string, RegisterTemplateSignal>(
    expandRegisterTemplate(template, template.strings?.max)
      .filter((s) => !s.value_map)
      .map((s) => [s.key, s]),
  );
  const span = (type: 'holding' | 'input') => {
    const of = [...signals.values()].filter((s) => s.register_type === type);
    const first = Math.min(...of.map((s) => s.address));
    const last = Math.max(...of.map((s) => s.address + registerCount(s.data_type as RegisterValueType) - 1));
    const image = new Map<number, number>();
    for (let a = first; a <= last; a++) image.set(a, 0);
    return image;
  };
  const units = new Map<number, TemplateUnit>();
  for (const unitId of options.unitIds) {
    if (!Number.isInteger(unitId) || unitId < 0 || unitId > 255 || units.has(unitId)) {
      throw new RangeError(`Unit id ${unitId} is outside 0…255 or used twice`);
    }
    units.set(unitId, { online: true, images: { holding: span('holding'), input: span('input') } });
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
    if (functionCode === FUNCTION_READ_HOLDING_REGISTERS) {
      return readRegistersAnswer(functionCode, pdu, unit.images.holding);
    }
    if (functionCode === FUNCTION_READ_INPUT_REGISTERS) {
      return readRegistersAnswer(functionCode, pdu, unit.images.input);
    }
    return exceptionPdu(functionCode, MODBUS_EXCEPTIONS.ILLEGAL_FUNCTION);
  };
  const server = await serveModbus(transport, options, handler);
  return {
    port: server.port,
    setValues: (unitId, values) => {
      const unit = unitOf(unitId);
      for (const [key, value] of Object.entries(values)) {
        const signal = signals.get(key);
        if (!signal) throw new RangeError(`${template.id} has no signal ${key}`);
        const image = signal.register_type === 'input' ? unit.images.input : unit.images.holding;
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
