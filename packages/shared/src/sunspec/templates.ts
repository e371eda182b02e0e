/**
 * Device templates built from the SunSpec models: choosing one fills in a device's signals with their
 * register addresses, types and scaling, so a SunSpec device needs no hand-made register map.
 *
 * Addresses are 0-based Modbus protocol addresses (what goes into the request PDU). SunSpec's base
 * "40001" in 1-based register numbering is protocol address 40000 (SunSpec Modbus, "Base address"): the
 * 'SunS' marker takes 40000–40001, model 1's ID register is at 40002, and each next model starts at
 * model address + 2 + L; the chain ends with model ID 0xFFFF.
 */
import type { DeviceType } from '../devices';
import type { DATA_TYPES } from '../signals';
import { encodeRegisters, encodeString } from './codec';
import type { ReadItem } from './codec';
import { SUNSPEC_MODELS, sunspecModelLength } from './models';
import type { DiscoveredModel, SunSpecModel, SunSpecPoint, SunSpecPointType } from './models';

type DataType = (typeof DATA_TYPES)[number];

/** Where SunSpec devices put the 'SunS' marker, in the order to try them (SunSpec Modbus, "Base address"). */
export const SUNSPEC_BASE_ADDRESSES = [40000, 0, 50000] as const;
export const SUNSPEC_BASE_ADDRESS_DEFAULT = 40000;
/** 'SunS' in two registers. */
export const SUNSPEC_MARKER = [0x5375, 0x6e53] as const;
/** The model ID that ends the chain (its L is 0). */
export const SUNSPEC_END_MODEL_ID = 0xffff;
/** MPPT inputs a template assumes for model 160 when no discovered chain tells. */
export const SUNSPEC_MPPT_INPUTS_DEFAULT = 2;

export interface SunSpecTemplate {
  deviceType: DeviceType;
  /** The models in chain order after the 'SunS' marker. */
  models: readonly number[];
  /** Models the device must offer; the others are used when present. */
  required: readonly number[];
}

export const SUNSPEC_TEMPLATES = {
  'sunspec-inverter': { deviceType: 'inverter', models: [1, 103, 160], required: [1, 103] },
  'sunspec-meter': { deviceType: 'meter', models: [1, 203], required: [1, 203] },
  // 302 (irradiance) and 303 (back-of-module temperature) give the plane-of-array irradiance and the module
  // temperature the KPIs need; a station without them still serves 307.
  'sunspec-weather': { deviceType: 'weather_station', models: [1, 307, 302, 303], required: [1, 307] },
} as const satisfies Record<string, SunSpecTemplate>;
export type SunSpecTemplateId = keyof typeof SUNSPEC_TEMPLATES;
export const SUNSPEC_TEMPLATE_IDS = Object.keys(SUNSPEC_TEMPLATES) as SunSpecTemplateId[];

/** One signal a template produces; the first fields are those of our signal body. */
export interface SunSpecTemplateSignal extends ReadItem {
  key: string;
  name: string;
  unit: string | null;
  register_type: 'holding';
  /** 0-based protocol address of the first register. */
  address: number;
  /** The type our signal table stores (acc32 and bitfield32 → uint32, enum16 → uint16…). */
  data_type: DataType;
  word_order: 'big';
  /** Fixed multiplier to our unit, after the scale factor: value = raw × 10^sf × scale. */
  scale: number;
  /** Address of the sunssf register holding sf, or null when the scale is fixed. */
  scale_factor_address: number | null;
  is_counter: boolean;
  /** The standard's type, for its not-implemented values (acc32 0 is "none", uint32 0 is a value). */
  sunspec_type: SunSpecPointType;
  /** Registers. */
  count: number;
  model_id: number;
  /** The standard's point name; `module[2].DCW` for the second block of model 160. */
  point: string;
}

const STORAGE_TYPE: Record<SunSpecPointType, DataType> = {
  int16: 'int16',
  uint16: 'uint16',
  count: 'uint16',
  acc16: 'uint16',
  enum16: 'uint16',
  bitfield16: 'uint16',
  pad: 'uint16',
  sunssf: 'int16',
  int32: 'int32',
  uint32: 'uint32',
  acc32: 'uint32',
  enum32: 'uint32',
  bitfield32: 'uint32',
  int64: 'int64',
  uint64: 'uint64',
  acc64: 'uint64',
  float32: 'float32',
  float64: 'float64',
  string: 'string',
};

export interface SunSpecLayoutOptions {
  /** Protocol address of the 'SunS' marker. */
  baseAddress?: number;
  /** Instances of model 160's module block. */
  mpptInputs?: number;
  /** Instances of the repeating block of other models (302's sensor sets, 303's sensors), by model ID; 1 if not given. */
  repeatBlocks?: Readonly<Record<number, number>>;
}

export interface SunSpecChainLayout {
  baseAddress: number;
  models: DiscoveredModel[];
  /** Address of the end marker's ID register (0xFFFF, then L = 0). */
  endAddress: number;
}

function modelOf(id: number): SunSpecModel {
  const model = SUNSPEC_MODELS[id];
  if (!model) throw new RangeError(`SunSpec model ${id} is not defined`);
  return model;
}

/** The chain `modelIds` form from `baseAddress`: what a device holding just these models exposes. */
export function sunspecChainLayout(
  modelIds: readonly number[],
  {
    baseAddress = SUNSPEC_BASE_ADDRESS_DEFAULT,
    mpptInputs = SUNSPEC_MPPT_INPUTS_DEFAULT,
    repeatBlocks = {},
  }: SunSpecLayoutOptions = {},
): SunSpecChainLayout {
  let address = baseAddress + SUNSPEC_MARKER.length;
  const models: DiscoveredModel[] = [];
  for (const id of modelIds) {
    const model = modelOf(id);
    const blocks = !model.repeating ? 0 : id === 160 ? mpptInputs : (repeatBlocks[id] ?? 1);
    const length = sunspecModelLength(model, blocks);
    models.push({ id, address, length });
    address += 2 + length;
  }
  return { baseAddress, models, endAddress: address };
}

/** Instances of a model's repeating block that a model length allows. */
export function sunspecRepeatCount(model: SunSpecModel, length: number): number {
  if (!model.repeating) return 0;
  const blocks = (length - model.fixedLength) / model.repeating.length;
  if (!Number.isInteger(blocks) || blocks < 0) {
    throw new RangeError(`Model ${model.id} cannot have length ${length}`);
  }
  return blocks;
}

function scaling(
  model: SunSpecModel,
  modelAddress: number,
  point: SunSpecPoint,
  factor: number,
): Pick<SunSpecTemplateSignal, 'scale' | 'scale_factor_address'> {
  if (point.sf === undefined) return { scale: factor, scale_factor_address: null };
  if (typeof point.sf === 'number') {
    const scale = point.sf < 0 ? factor / 10 ** -point.sf : factor * 10 ** point.sf;
    return { scale: Number(scale.toPrecision(15)), scale_factor_address: null };
  }
  // Scale factors live in the model's fixed part, also for the points of a repeating block.
  const sf = model.points.find((p) => p.name === point.sf && p.type === 'sunssf');
  if (!sf) throw new Error(`Model ${model.id} has no scale factor ${point.sf}`);
  return { scale: factor, scale_factor_address: modelAddress + sf.offset };
}

function signalsOf(model: SunSpecModel, location: DiscoveredModel): SunSpecTemplateSignal[] {
  const out: SunSpecTemplateSignal[] = [];
  const add = (point: SunSpecPoint, address: number, instance?: number) => {
    const mapping = point.signal;
    if (!mapping || (mapping.firstInstanceOnly && instance !== 1)) return;
    const n = String(instance ?? '');
    out.push({
      key: mapping.key.replaceAll('{n}', n),
      name: mapping.name.replaceAll('{n}', n),
      unit: mapping.unit,
      register_type: 'holding',
      address,
      data_type: STORAGE_TYPE[point.type],
      word_order: 'big',
      ...scaling(model, location.address, point, mapping.factor),
      is_counter: mapping.isCounter ?? false,
      sunspec_type: point.type,
      count: point.size,
      model_id: model.id,
      point: instance === undefined ? point.name : `${model.repeating?.name}[${instance}].${point.name}`,
    });
  };
  for (const point of model.points) add(point, location.address + point.offset);
  if (model.repeating) {
    const blocks = sunspecRepeatCount(model, location.length);
    for (let i = 0; i < blocks; i++) {
      const blockAddress = location.address + 2 + model.fixedLength + i * model.repeating.length;
      for (const point of model.repeating.points) add(point, blockAddress + point.offset, i + 1);
    }
  }
  return out;
}

export interface ExpandTemplateOptions extends SunSpecLayoutOptions {
  /** The models a device offers (from discovery): addresses and model 160's input count come from it. */
  chain?: readonly DiscoveredModel[];
}

/**
 * The signals of a template, at the addresses of a discovered chain or, without one, of the chain the
 * template's models form from the base address. Throws when the chain lacks a required model.
 */
export function expandTemplate(
  id: SunSpecTemplateId,
  options: ExpandTemplateOptions = {},
): SunSpecTemplateSignal[] {
  const template: SunSpecTemplate = SUNSPEC_TEMPLATES[id];
  const chain = options.chain ?? sunspecChainLayout(template.models, options).models;
  const signals: SunSpecTemplateSignal[] = [];
  for (const modelId of template.models) {
    const location = chain.find((m) => m.id === modelId);
    if (!location) {
      if (template.required.includes(modelId)) {
        throw new Error(`The device offers no SunSpec model ${modelId}, which ${id} needs`);
      }
      continue;
    }
    signals.push(...signalsOf(modelOf(modelId), location));
  }
  return signals;
}

/**
 * The signals of any set of shipped models (not one template): at the addresses of a discovered chain, or
 * of the chain these models form in this order from the base address. A model the chain lacks, or that is
 * not shipped, throws.
 */
export function expandModels(
  modelIds: readonly number[],
  options: ExpandTemplateOptions = {},
): SunSpecTemplateSignal[] {
  const chain = options.chain ?? sunspecChainLayout(modelIds, options).models;
  const signals: SunSpecTemplateSignal[] = [];
  for (const modelId of modelIds) {
    const location = chain.find((m) => m.id === modelId);
    if (!location) throw new Error(`The device offers no SunSpec model ${modelId}`);
    signals.push(...signalsOf(modelOf(modelId), location));
  }
  return signals;
}

/** The scale-factor registers `signals` depend on, as items to read along with them. */
export function scaleFactorReadItems(signals: readonly SunSpecTemplateSignal[]): ReadItem[] {
  const addresses = new Set<number>();
  for (const s of signals) if (s.scale_factor_address !== null) addresses.add(s.scale_factor_address);
  return [...addresses]
    .sort((a, b) => a - b)
    .map((address) => ({ register_type: 'holding', address, count: 1, data_type: 'sunssf' }));
}

/**
 * The registers of a chain as a device with nothing measured yet would serve them: the 'SunS' marker,
 * each model's ID and L (and model 160's N), every other point at its not-implemented value, and the end
 * marker. A simulator writes its values over this; tests decode it.
 */
export function sunspecRegisterImage(layout: SunSpecChainLayout): Map<number, number> {
  const image = new Map<number, number>();
  const put = (address: number, registers: readonly number[]) =>
    registers.forEach((r, i) => image.set(address + i, r));
  const fill = (address: number, point: SunSpecPoint) =>
    put(
      address,
      point.type === 'string' ? encodeString(null, point.size) : encodeRegisters(null, point.type),
    );
  put(layout.baseAddress, SUNSPEC_MARKER);
  for (const location of layout.models) {
    const model = modelOf(location.id);
    const blocks = sunspecRepeatCount(model, location.length);
    for (const point of model.points) fill(location.address + point.offset, point);
    put(location.address, [location.id, location.length]);
    const n = model.points.find((p) => p.type === 'count');
    if (n) put(location.address + n.offset, [blocks]);
    for (let i = 0; i < blocks && model.repeating; i++) {
      const blockAddress = location.address + 2 + model.fixedLength + i * model.repeating.length;
      for (const point of model.repeating.points) fill(blockAddress + point.offset, point);
      // A module's ID is its 1-based input number.
      const id = model.repeating.points.find((p) => p.name === 'ID');
      if (id) put(blockAddress + id.offset, [i + 1]);
    }
  }
  put(layout.endAddress, [SUNSPEC_END_MODEL_ID, 0]);
  return image;
}
