import { z } from 'zod';
import { listAnswer, listQueryBase, queryFlag, refFilter, refId, sortParam, timestamps } from './common';
import { SIGNAL_VALUE_LIMIT } from './signal-bounds';
import { V, flag, optionalText, requiredText } from './validation';

export const DATA_TYPES = [
  'int16',
  'uint16',
  'int32',
  'uint32',
  'int64',
  'uint64',
  'float32',
  'float64',
  'bool',
  'string',
] as const;
export const REGISTER_TYPES = ['holding', 'input', 'coil', 'discrete'] as const;
/** Order of 16-bit words in a multi-register value: big = high word first (ABCD), little = low word first (CDAB). */
export const WORD_ORDERS = ['big', 'little'] as const;
/** A signal key: snake_case, e.g. ac_power, daily_energy. */
export const SIGNAL_KEY_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

/** A validity bound of a signal, in its unit; null: the unit's default (signal-bounds.ts). */
const boundField = () =>
  z
    .number({ error: V.invalidNumber })
    .min(-SIGNAL_VALUE_LIMIT, { error: V.outOfRange })
    .max(SIGNAL_VALUE_LIMIT, { error: V.outOfRange })
    .nullish();

/** Entries a signal's state map may hold: a vendor's state register has tens of states, not thousands. */
export const VALUE_MAP_MAX_ENTRIES = 256;

/**
 * A signal's state map (`signals.value_map`, docs/vendor-templates.md): the value read (an integer, after
 * `scale`, as a decimal string) → the value stored. The Modbus poller and the edge agent store nothing for a
 * value the map does not hold, so an unknown vendor state is never shown as a wrong one.
 */
export const signalValueMap = z
  .record(
    z.string().regex(/^-?\d{1,10}$/, { error: V.invalidKey }),
    z
      .number({ error: V.invalidNumber })
      .int({ error: V.invalidNumber })
      .min(-SIGNAL_VALUE_LIMIT, { error: V.outOfRange })
      .max(SIGNAL_VALUE_LIMIT, { error: V.outOfRange }),
    // A bad key is reported on the map's entry (`value_map.<key>`) as a bad key, anything else as a bad map.
    { error: (issue) => (issue.code === 'invalid_key' ? V.invalidKey : V.invalidValue) },
  )
  .refine((m) => Object.keys(m).length <= VALUE_MAP_MAX_ENTRIES, { error: V.tooMany });
export type SignalValueMap = z.infer<typeof signalValueMap>;

/** POST signals/{id} (0 creates). A signal is one measured quantity of one device (a tag). */
export const signalBody = z
  .object({
    device_id: refId(),
    key: z
      .string({ error: V.required })
      .trim()
      .min(1, { error: V.required })
      .regex(SIGNAL_KEY_PATTERN, { error: V.invalidKey }),
    name: requiredText(200),
    unit: optionalText(20),
    data_type: z.enum(DATA_TYPES, { error: V.invalidValue }).default('float32'),
    register_type: z.enum(REGISTER_TYPES, { error: V.invalidValue }).nullish(),
    address: z
      .number({ error: V.invalidNumber })
      .int({ error: V.invalidNumber })
      .min(0, { error: V.outOfRange })
      .max(65_535, { error: V.outOfRange })
      .nullish(),
    word_order: z.enum(WORD_ORDERS, { error: V.invalidValue }).nullish(),
    /** Raw value × scale = value in `unit`. */
    scale: z
      .number({ error: V.invalidNumber })
      .refine((v) => Number.isFinite(v) && v !== 0 && Math.abs(v) <= 1e9, { error: V.outOfRange })
      .default(1),
    /** A monotonically increasing counter (energy totals): rollups take differences, not averages. */
    is_counter: flag().default(false),
    is_active: flag().default(true),
    /**
     * Values below `min_value` or above `max_value` are refused at ingest (`out_of_range`); a side left
     * empty takes the unit's default (UNIT_DEFAULT_BOUNDS).
     */
    min_value: boundField(),
    max_value: boundField(),
    /**
     * The state map; null removes it, and leaving it out keeps the stored one (a form without the field
     * does not wipe a template's map).
     */
    value_map: signalValueMap.nullish(),
  })
  .refine((b) => b.min_value == null || b.max_value == null || b.min_value <= b.max_value, {
    error: V.rangeOrder,
    path: ['max_value'],
  });
export type SignalBody = z.input<typeof signalBody>;

export const signalSchema = z.object({
  id: z.number().int(),
  device_id: z.number().int(),
  device_name: z.string(),
  plant_id: z.number().int(),
  key: z.string(),
  name: z.string(),
  unit: z.string().nullable(),
  data_type: z.enum(DATA_TYPES),
  register_type: z.enum(REGISTER_TYPES).nullable(),
  address: z.number().int().nullable(),
  word_order: z.enum(WORD_ORDERS).nullable(),
  scale: z.number(),
  is_counter: z.boolean(),
  is_active: z.boolean(),
  min_value: z.number().nullable(),
  max_value: z.number().nullable(),
  /** The state map applied after decoding (value read → value stored); null: stored as read. */
  value_map: z.record(z.string(), z.number()).nullable(),
  ...timestamps,
});
export type Signal = z.infer<typeof signalSchema>;

export const SIGNAL_SORTS = [
  'id',
  'key',
  'name',
  'unit',
  'address',
  'device_name',
  'is_active',
  'created_at',
  'updated_at',
] as const;
/** GET signals */
export const signalListQuery = listQueryBase.extend({
  sort: sortParam(SIGNAL_SORTS, 'key'),
  is_active: queryFlag(),
  device_id: refFilter(),
  plant_id: refFilter(),
});
export type SignalListQuery = z.input<typeof signalListQuery>;
export const signalList = listAnswer(signalSchema);
export type SignalList = z.infer<typeof signalList>;
