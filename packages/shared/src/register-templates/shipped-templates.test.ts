import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INVERTER_STATE_KEYS } from '../kpi';
import { signalBody } from '../signals';
import { registerCount } from '../sunspec/codec';
import {
  REGISTER_TEMPLATES,
  VENDOR_ALARM_CODES,
  expandRegisterTemplate,
  mapSignalValue,
  registerTemplateSchema,
  type RegisterTemplate,
  type RegisterTemplateSignal,
} from './index';

const here = new URL('./', import.meta.url);
const LOCALES = ['tr_TR', 'en_US', 'de_DE', 'mk_MK'] as const;
const locale = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../i18n/locales/${name}.json`, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;
const lookup = (bundle: Record<string, unknown>, key: string): unknown =>
  key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], bundle);

const templates = Object.values(REGISTER_TEMPLATES);
/** Every signal a template can give a device: its fixed ones and each of its DC inputs at their most. */
const allSignals = (t: RegisterTemplate) => expandRegisterTemplate(t, t.strings?.max);

/**
 * The keys the console's own readers look for, by device type (KPI roles in the server's signal-map.ts,
 * the inverter page's keys, the alarm engine's status and grid keys): a template must fill its device's.
 */
const REQUIRED_KEYS: Partial<Record<string, string[]>> = {
  inverter: ['ac_power', 'total_energy', 'daily_energy', 'temperature', 'status_code'],
  meter: ['active_power', 'export_energy', 'import_energy'],
  data_logger: ['ac_power', 'total_energy', 'daily_energy'],
};

describe('shipped register templates', () => {
  it('ships every JSON file of the folder, each as the schema reads it', () => {
    const files = readdirSync(here).filter((f) => f.endsWith('.json'));
    expect(files.length).toBe(templates.length);
    for (const file of files) {
      const json: unknown = JSON.parse(readFileSync(new URL(file, here), 'utf8'));
      const parsed = registerTemplateSchema.parse(json);
      expect(`${parsed.id}.json`).toBe(file);
      expect(REGISTER_TEMPLATES[parsed.id]).toEqual(parsed);
      // Where the map was read from is named, as the docs require of every template.
      expect(parsed.source.length, parsed.id).toBeGreaterThan(80);
    }
  });

  it.each(templates.map((t) => [t.id, t] as const))(
    '%s uses the standard keys, named as the catalogue names them',
    (_id, t) => {
      const catalogue = lookup(locale('tr_TR'), 'signals.standardNames') as Record<string, string>;
      const standardName = (s: RegisterTemplateSignal): string | undefined => {
        if (catalogue[s.key] !== undefined) return catalogue[s.key];
        for (const [entry, name] of Object.entries(catalogue)) {
          const [head, tail] = entry.split('{n}');
          if (tail === undefined || !s.key.startsWith(head!) || !s.key.endsWith(tail)) continue;
          const n = s.key.slice(head!.length, s.key.length - tail.length);
          if (/^\d+$/.test(n)) return name.replaceAll('{{n}}', n);
        }
        return undefined;
      };
      const signals = allSignals(t);
      for (const s of signals) {
        // A key of the catalogue, under the name the catalogue gives it, so it shows in the reader's language.
        expect(standardName(s), `${t.id}: ${s.key}`).toBe(s.name);
        expect(signalBody.safeParse({ device_id: 1, ...s }).success, `${t.id}: ${s.key}`).toBe(true);
      }
      const keys = new Set(signals.map((s) => s.key));
      expect(keys.size, 'one signal per key').toBe(signals.length);
      for (const key of REQUIRED_KEYS[t.device_type] ?? [])
        expect(keys.has(key), `${t.id}: ${key}`).toBe(true);
      if (t.device_type === 'weather_station') {
        expect(keys.has('poa_irradiance') || keys.has('ghi'), t.id).toBe(true);
      }
    },
  );

  it.each(templates.map((t) => [t.id, t] as const))(
    '%s reads no register twice, but for a state read raw and through its value map',
    (_id, t) => {
      const owner = new Map<string, RegisterTemplateSignal>();
      for (const s of allSignals(t).filter((x) => !x.value_map)) {
        for (let i = 0; i < registerCount(s.data_type); i++) {
          const at = `${s.register_type}:${s.address + i}`;
          expect(owner.get(at)?.key, `${t.id}: ${s.key} and another read ${at}`).toBeUndefined();
          owner.set(at, s);
        }
      }
      // A mapped signal reads exactly the register of its raw twin, which keeps the vendor's own value.
      for (const s of allSignals(t).filter((x) => x.value_map)) {
        const twin = owner.get(`${s.register_type}:${s.address}`);
        expect(twin, `${t.id}: ${s.key}`).toMatchObject({ data_type: s.data_type, scale: s.scale });
        expect(s.key).toBe('status_code');
        // Every value it maps to is one of the console's states.
        for (const v of Object.values(s.value_map!))
          expect(INVERTER_STATE_KEYS[v], `${t.id}: ${v}`).toBeDefined();
      }
    },
  );

  it('has every alarm and fault text it names in all four languages', () => {
    const bundles = LOCALES.map((l) => [l, locale(l)] as const);
    const messages = templates.flatMap((t) => [
      ...t.alarm_words.flatMap((w) => w.bits.map((b) => b.message)),
      ...t.alarm_codes.flatMap((w) => w.codes.map((c) => c.message)),
    ]);
    expect(messages.filter(Boolean).length).toBeGreaterThan(30);
    for (const message of messages) {
      if (!message) continue;
      for (const [l, bundle] of bundles) {
        expect(typeof lookup(bundle, message), `${l}: ${message}`).toBe('string');
      }
    }
    // Every fault-code register and alarm word is polled by a signal of its template.
    for (const t of templates) {
      const keys = new Set(allSignals(t).map((s) => s.key));
      for (const w of [...t.alarm_words, ...t.alarm_codes])
        expect(keys.has(w.key), `${t.id}: ${w.key}`).toBe(true);
    }
  });

  it("maps Huawei's device status and Sungrow's work state to the console's states", () => {
    const statusOf = (id: string) =>
      REGISTER_TEMPLATES[id]!.signals.find((s) => s.key === 'status_code')!.value_map;
    const huawei = statusOf('huawei-sun2000');
    // SunSpec St: 2 sleeping, 3 starting, 4 MPPT, 5 throttled, 7 fault, 8 standby, 1 off.
    expect(mapSignalValue(0x0200, huawei)).toBe(4);
    expect(mapSignalValue(0x0201, huawei)).toBe(5);
    expect(mapSignalValue(0x0300, huawei)).toBe(7);
    expect(mapSignalValue(0x0301, huawei)).toBe(1);
    expect(mapSignalValue(0xa000, huawei)).toBe(2);
    expect(mapSignalValue(0x0100, huawei)).toBe(3);
    expect(mapSignalValue(0x0002, huawei)).toBe(8);
    // A value Huawei's table does not give the inverter (the SmartLogger's 0xB000) is no state at all.
    expect(mapSignalValue(0xb000, huawei)).toBeNull();
    const sungrow = statusOf('sungrow-sg-cx');
    expect(mapSignalValue(0x0000, sungrow)).toBe(4);
    expect(mapSignalValue(0x5500, sungrow)).toBe(7);
    expect(mapSignalValue(0x8000, sungrow)).toBe(1);
    expect(mapSignalValue(0x1400, sungrow)).toBe(8);
    expect(mapSignalValue(0x8100, sungrow)).toBe(5);
    expect(mapSignalValue(0x1600, sungrow)).toBe(3);
    // Without a map a value passes as it is; a null stays null.
    expect(mapSignalValue(512, undefined)).toBe(512);
    expect(mapSignalValue(null, huawei)).toBeNull();
  });

  it("turns Sungrow's fault codes into alarms with their priority", () => {
    const register = VENDOR_ALARM_CODES.get('sungrow_fault_code')!;
    expect(register.vendor).toBe('Sungrow');
    expect(register.codes.get(39)).toEqual({ code: 39, message: 'alarms.msg.sungrow.c39', priority: 3 });
    expect(register.codes.get(70)).toMatchObject({ message: 'alarms.msg.sungrow.c70', priority: 1 });
    expect(register.codes.get(47)).toMatchObject({ priority: 2 });
    expect(register.codes.has(0)).toBe(false);
  });

  it('refuses a value map whose vendor values are not whole numbers', () => {
    const base = REGISTER_TEMPLATES['sungrow-sg-cx']!;
    const bad = {
      ...base,
      signals: base.signals.map((s) => (s.value_map ? { ...s, value_map: { '0x5500': 7 } } : s)),
    };
    expect(registerTemplateSchema.safeParse(bad).success).toBe(false);
  });
});
