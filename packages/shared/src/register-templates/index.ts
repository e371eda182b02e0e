/**
 * Register-map templates of devices that do not speak SunSpec, shipped as data (one JSON file per device
 * family, in the format `registerTemplateSchema` checks): the vendor's registers mapped to our standard
 * signal keys, plus the vendor's alarm bit fields with their codes, so the alarm engine can raise the
 * vendor's alarm with its text and repair advice in the reader's language (alarms.msg.<vendor>.c<code>).
 *
 * Addresses are 0-based protocol addresses, as the vendors' Modbus definitions give them (Huawei's 32080 is
 * what goes into the request).
 */
import { z } from 'zod';
import { V } from '../validation';
import { DATA_TYPES, REGISTER_TYPES, SIGNAL_KEY_PATTERN, WORD_ORDERS } from '../signals';
import { DEVICE_TYPES } from '../devices';
import { ALARM_PRIORITY, type AlarmPriority } from '../alarms';
import { refFilter } from '../common';
import huaweiSmartlogger from './huawei-smartlogger.json' with { type: 'json' };
import huaweiEmi from './huawei-emi.json' with { type: 'json' };
import huaweiSun2000 from './huawei-sun2000.json' with { type: 'json' };
import janitzaUmg from './janitza-umg.json' with { type: 'json' };
import kippZonenSmp from './kippzonen-smp.json' with { type: 'json' };
import sungrowSgCx from './sungrow-sg-cx.json' with { type: 'json' };

export const REGISTER_TEMPLATE_FORMAT = 'solar-console/register-template@1';

const templateSignal = z.object({
  /** A signal key; in `strings`, `{n}` stands for the input number. */
  key: z.string().refine((k) => SIGNAL_KEY_PATTERN.test(k.replaceAll('{n}', '1'))),
  name: z.string().min(1).max(200),
  unit: z.string().max(20).nullable(),
  register_type: z.enum(REGISTER_TYPES),
  address: z.number().int().min(0).max(65_535),
  data_type: z.enum(DATA_TYPES),
  word_order: z.enum(WORD_ORDERS),
  scale: z.number().refine((v) => Number.isFinite(v) && v !== 0),
  is_counter: z.boolean(),
  /**
   * The vendor's state values (after `scale`, as decimal strings) and the console's value each stands for:
   * a vendor's device status read as the console's `status_code` (SunSpec St, `INVERTER_STATE_KEYS`), so
   * the state shows and the alarm engine judges it as any SunSpec inverter's. A value not in the map is
   * stored as nothing (an unknown state is not guessed).
   */
  value_map: z.record(z.string().regex(/^\d{1,10}$/), z.number().int()).optional(),
});
export type RegisterTemplateSignal = z.infer<typeof templateSignal>;

/** Vendor alarm levels, as the vendors name them, and the priority each becomes. */
export const VENDOR_ALARM_LEVELS = ['major', 'minor', 'warning'] as const;
const LEVEL_PRIORITY: Record<(typeof VENDOR_ALARM_LEVELS)[number], AlarmPriority> = {
  major: ALARM_PRIORITY.high,
  minor: ALARM_PRIORITY.medium,
  warning: ALARM_PRIORITY.low,
};

const alarmBit = z.object({
  /** 0 = least significant bit of the register. */
  bit: z.number().int().min(0).max(15),
  /** The vendor's alarm ID, shown with the alarm. */
  code: z.number().int().min(0),
  level: z.enum(VENDOR_ALARM_LEVELS),
  /** i18n key of the alarm's text and repair advice; without it the alarm is named by its code only. */
  message: z
    .string()
    .regex(/^alarms\.msg\.[\w.]+$/)
    .optional(),
});

/** One value of a vendor's fault-code register: the alarm is active while the register holds `code`. */
const alarmCode = alarmBit.omit({ bit: true });

export const registerTemplateSchema = z.object({
  format: z.literal(REGISTER_TEMPLATE_FORMAT),
  id: z.string().regex(/^[a-z0-9-]{1,60}$/),
  vendor: z.string().min(1).max(60),
  label: z.string().min(1).max(200),
  device_type: z.enum(DEVICE_TYPES),
  /** Where the map was read from. */
  source: z.string().min(1),
  signals: z.array(templateSignal),
  /** Per DC input (string): `{n}` in key and name is the 1-based input, addresses step by `stride`. */
  strings: z
    .object({
      max: z.number().int().min(1).max(64),
      default: z.number().int().min(1),
      stride: z.number().int().min(1),
      signals: z.array(templateSignal),
    })
    .optional(),
  /** Registers that are bit fields of the vendor's alarms: each set bit is one active alarm. */
  alarm_words: z.array(z.object({ key: z.string(), bits: z.array(alarmBit) })).default([]),
  /** Registers that hold one fault code at a time (Sungrow's): each listed code is that vendor's alarm. */
  alarm_codes: z.array(z.object({ key: z.string(), codes: z.array(alarmCode) })).default([]),
});
export type RegisterTemplate = z.infer<typeof registerTemplateSchema>;

/** The shipped templates, checked against the schema when loaded. */
export const REGISTER_TEMPLATES: Readonly<Record<string, RegisterTemplate>> = Object.fromEntries(
  [huaweiSun2000, sungrowSgCx, janitzaUmg, huaweiEmi, kippZonenSmp, huaweiSmartlogger].map((json) => {
    const t = registerTemplateSchema.parse(json);
    return [t.id, t];
  }),
);
export const REGISTER_TEMPLATE_IDS = Object.keys(REGISTER_TEMPLATES);

/** The signals a template gives a device with `strings` DC inputs (the template's default if not given). */
export function expandRegisterTemplate(
  template: RegisterTemplate,
  strings = template.strings?.default ?? 0,
): RegisterTemplateSignal[] {
  const out = [...template.signals];
  const s = template.strings;
  if (s) {
    if (!Number.isInteger(strings) || strings < 1 || strings > s.max) {
      throw new RangeError(`${template.id} has 1…${s.max} strings, not ${strings}`);
    }
    for (let n = 1; n <= strings; n++) {
      for (const signal of s.signals) {
        out.push({
          ...signal,
          key: signal.key.replaceAll('{n}', String(n)),
          name: signal.name.replaceAll('{n}', String(n)),
          address: signal.address + (n - 1) * s.stride,
        });
      }
    }
  }
  return out;
}

export interface VendorAlarm {
  code: number;
  /** i18n key; `alarms.msg.vendorAlarm` (vendor and code) for a code without its own text. */
  message: string;
  priority: AlarmPriority;
}

/** Every alarm bit field of the shipped templates, by signal key: bit → the vendor's alarm. */
export const VENDOR_ALARM_WORDS: ReadonlyMap<
  string,
  { vendor: string; bits: ReadonlyMap<number, VendorAlarm> }
> = new Map(
  Object.values(REGISTER_TEMPLATES).flatMap((t) =>
    t.alarm_words.map((w) => [
      w.key,
      {
        vendor: t.vendor,
        bits: new Map(
          w.bits.map((b) => [
            b.bit,
            {
              code: b.code,
              message: b.message ?? 'alarms.msg.vendorAlarm',
              priority: LEVEL_PRIORITY[b.level],
            },
          ]),
        ),
      },
    ]),
  ),
);

/** Every fault-code register of the shipped templates, by signal key: code → the vendor's alarm. */
export const VENDOR_ALARM_CODES: ReadonlyMap<
  string,
  { vendor: string; codes: ReadonlyMap<number, VendorAlarm> }
> = new Map(
  Object.values(REGISTER_TEMPLATES).flatMap((t) =>
    t.alarm_codes.map((w) => [
      w.key,
      {
        vendor: t.vendor,
        codes: new Map(
          w.codes.map((c) => [
            c.code,
            {
              code: c.code,
              message: c.message ?? 'alarms.msg.vendorAlarm',
              priority: LEVEL_PRIORITY[c.level],
            },
          ]),
        ),
      },
    ]),
  ),
);

/**
 * A decoded value read through a signal's `value_map`: the console's value, or null for a vendor value
 * the map does not hold. Without a map the value is returned as it is.
 */
export function mapSignalValue(
  value: number | null,
  valueMap: Readonly<Record<string, number>> | null | undefined,
): number | null {
  if (!valueMap || value === null) return value;
  if (!Number.isFinite(value) || value < 0) return null;
  return valueMap[String(Math.round(value))] ?? null;
}
/** Where a listed template comes from: shipped with the console, or a company's own (stored, editable). */
export const REGISTER_TEMPLATE_SOURCES = ['shipped', 'company'] as const;
export type RegisterTemplateSource = (typeof REGISTER_TEMPLATE_SOURCES)[number];

/**
 * A template as the routes take it from a company (POST imports the exported file, PUT changes one): the
 * file format, with alarm bit fields and fault-code registers only where the alarm engine judges them (the
 * shipped ones).
 */
export const companyRegisterTemplateBody = registerTemplateSchema
  .refine((t) => t.alarm_words.every((w) => VENDOR_ALARM_WORDS.has(w.key)), {
    error: V.invalidValue,
    path: ['alarm_words'],
  })
  .refine((t) => t.alarm_codes.every((w) => VENDOR_ALARM_CODES.has(w.key)), {
    error: V.invalidValue,
    path: ['alarm_codes'],
  });
export type CompanyRegisterTemplateBody = z.input<typeof companyRegisterTemplateBody>;

/** POST /api/register-templates?company_id=: the administrator names the company; others save to their own. */
export const registerTemplateCompanyQuery = z.object({ company_id: refFilter() });

/** One listed template. */
export const registerTemplateEntry = z.object({
  source: z.enum(REGISTER_TEMPLATE_SOURCES),
  /** A company template's id (GET/PUT/DELETE /api/register-templates/{id}); null for a shipped one. */
  id: z.number().int().nullable(),
  company_id: z.number().int().nullable(),
  template: registerTemplateSchema,
  /** Epoch ms of the last change; null for a shipped one. */
  updated_at: z.number().nullable(),
});
export type RegisterTemplateEntry = z.infer<typeof registerTemplateEntry>;

/** GET /api/register-templates: the shipped templates, then the caller's company's own (every company's for the admin). */
export const registerTemplatesAnswer = z.object({ templates: z.array(registerTemplateEntry) });
export type RegisterTemplatesAnswer = z.infer<typeof registerTemplatesAnswer>;

/**
 * POST /api/devices/{id}/register-template: creates a template's signals on a device. `template` names a
 * shipped one, `template_id` a company's own (of the device's company); `template_json` imports one in the
 * same JSON format (as GET /api/register-templates/{id} exports them), for a device family not shipped. The
 * alarm engine judges only the shipped alarm bit fields and fault-code registers, so an imported template may
 * list only those in `alarm_words` and `alarm_codes`. The same body asks POST …/register-template/check to
 * read the mapped registers once.
 */
export const registerTemplateApplyBody = z
  .object({
    template: z
      .string({ error: V.invalidValue })
      .refine((id) => REGISTER_TEMPLATE_IDS.includes(id), { error: V.invalidValue })
      .optional(),
    template_id: z
      .number({ error: V.invalidNumber })
      .int({ error: V.invalidNumber })
      .min(1, { error: V.invalidValue })
      .optional(),
    template_json: companyRegisterTemplateBody.optional(),
    /** DC inputs whose voltage and current to read; the template's default when left out. */
    strings: z
      .number({ error: V.invalidNumber })
      .int({ error: V.invalidNumber })
      .min(1, { error: V.outOfRange })
      .max(64, { error: V.outOfRange })
      .optional(),
  })
  .refine((b) => [b.template, b.template_id, b.template_json].filter((x) => x !== undefined).length === 1, {
    error: V.oneOfRequired,
    path: ['template'],
  })
  .refine(
    (b) =>
      b.strings === undefined ||
      b.template_id !== undefined ||
      b.strings <= ((b.template_json ?? REGISTER_TEMPLATES[b.template ?? ''])?.strings?.max ?? 0),
    { error: V.outOfRange, path: ['strings'] },
  );
export type RegisterTemplateApplyBody = z.input<typeof registerTemplateApplyBody>;

export const registerTemplateApplyAnswer = z.object({
  created: z.array(z.object({ id: z.number().int(), key: z.string() })),
  /** Keys the device had already: left alone. */
  skipped: z.array(z.string()),
});
export type RegisterTemplateApplyAnswer = z.infer<typeof registerTemplateApplyAnswer>;

/** What reading one mapped register once told: it answered a plausible value, a Modbus exception, or an implausible value. */
export const REGISTER_CHECK_OUTCOMES = ['ok', 'exception', 'out_of_range', 'not_read'] as const;
export type RegisterCheckOutcome = (typeof REGISTER_CHECK_OUTCOMES)[number];

/**
 * POST /api/devices/{id}/register-template/check: each register of the template (as it would be applied)
 * read once from the device. `not_read`: a register or value type the poller does not read (coil, string).
 * A device that cannot be reached at all is one 502 (errors.deviceUnreachable), whatever the reason.
 */
export const registerTemplateCheckAnswer = z.object({
  registers: z.array(
    z.object({
      key: z.string(),
      name: z.string(),
      unit: z.string().nullable(),
      register_type: z.enum(REGISTER_TYPES),
      address: z.number().int(),
      data_type: z.enum(DATA_TYPES),
      outcome: z.enum(REGISTER_CHECK_OUTCOMES),
      /** The Modbus exception code (2 = illegal data address) when outcome is `exception`. */
      exception_code: z.number().int().nullable(),
      /** The value read, in the signal's unit, after its scale. */
      value: z.number().nullable(),
      /** The plausible range the value was judged against (the unit's default bounds for the device). */
      min: z.number().nullable(),
      max: z.number().nullable(),
    }),
  ),
});
export type RegisterTemplateCheckAnswer = z.infer<typeof registerTemplateCheckAnswer>;
