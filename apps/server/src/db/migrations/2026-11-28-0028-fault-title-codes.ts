import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DialectMigration } from './helpers';

/**
 * The Turkish alarm texts (`alarms.msg.*` in tr_TR.json) that fault titles were written with before titles
 * carried a message code, frozen here as they were: a migration must read old rows the same way whatever
 * the catalogue says later.
 */
const OLD_TURKISH_MESSAGES: Record<string, string> = {
  'alarms.msg.custom': '{{name}}: değer {{value}} {{unit}} ({{operant}} {{threshold}})',
  'alarms.msg.inverterFault': 'İnverter arıza durumunda (durum kodu {{code}})',
  'alarms.msg.commLoss': 'Cihazla iletişim kesildi',
  'alarms.msg.plantNoProduction': 'Santral, ışınım {{irradiance}} W/m² iken üretim yapmıyor',
  'alarms.msg.underperformance':
    'İnverter, santraldeki diğer inverterlerin medyanının %{{threshold}} altında üretiyor',
  'alarms.msg.groundFault': 'Toprak kaçağı arızası',
  'alarms.msg.dcOverVoltage': 'DC aşırı gerilim',
  'alarms.msg.acDisconnect': 'AC bağlantısı kesildi',
  'alarms.msg.dcDisconnect': 'DC bağlantısı kesildi',
  'alarms.msg.gridDisconnect': 'Şebeke bağlantısı kesildi',
  'alarms.msg.cabinetOpen': 'Kabin kapağı açık',
  'alarms.msg.manualShutdown': 'Elle kapatıldı',
  'alarms.msg.overTemperature': 'Aşırı sıcaklık',
  'alarms.msg.overFrequency': 'Aşırı frekans',
  'alarms.msg.underFrequency': 'Düşük frekans',
  'alarms.msg.acOverVoltage': 'AC aşırı gerilim',
  'alarms.msg.acUnderVoltage': 'AC düşük gerilim',
  'alarms.msg.blownStringFuse': 'Dizi sigortası attı',
  'alarms.msg.underTemperature': 'Düşük sıcaklık',
  'alarms.msg.memoryLoss': 'Bellek kaybı',
  'alarms.msg.hardwareTestFailure': 'Donanım testi başarısız',
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `{{name}}` placeholders become named groups; the text before ": " is the device or plant name. */
const PATTERNS = Object.entries(OLD_TURKISH_MESSAGES).map(([code, template]) => {
  const names: string[] = [];
  const body = template
    .split(/(\{\{\w+\}\})/)
    .map((part) => {
      const name = /^\{\{(\w+)\}\}$/.exec(part)?.[1];
      if (!name) return escapeRegExp(part);
      names.push(name);
      return '(.*?)';
    })
    .join('');
  return { code, names, regex: new RegExp(`^(.+?): ${body}$`, 'su') };
});

const NUMBER = /^-?\d+(?:\.\d+)?$/;

/**
 * The message code and parameters of a fault title written the old way ("INV-3: İnverter arıza durumunda
 * (durum kodu 7)"), or null when the title is not one of the known texts (a title a person typed). The
 * parameters are the alarm's; the subject before the colon is the fault's device or plant, not a parameter.
 */
export function parseOldFaultTitle(
  title: string,
): { code: string; params: Record<string, string | number> } | null {
  for (const { code, names, regex } of PATTERNS) {
    const match = regex.exec(title);
    if (!match) continue;
    const params: Record<string, string | number> = {};
    names.forEach((name, i) => {
      const value = match[i + 2] ?? '';
      params[name] = NUMBER.test(value) ? Number(value) : value;
    });
    return { code, params };
  }
  return null;
}

/** Gives every fault made from an alarm, whose title is still one of the old Turkish texts, its code. */
export async function backfillFaultTitleCodes(db: Kysely<unknown>): Promise<number> {
  const rows = await sql<{ id: number; title: string }>`
    select id, title from faults where alarm_id is not null and title_code is null`.execute(db);
  let updated = 0;
  for (const row of rows.rows) {
    const parsed = parseOldFaultTitle(row.title);
    if (!parsed) continue;
    await sql`update faults set title_code = ${parsed.code}, title_params = ${JSON.stringify(parsed.params)}
      where id = ${row.id}`.execute(db);
    updated += 1;
  }
  return updated;
}

/**
 * Faults made from an alarm keep the alarm's message code and parameters (`title_code`, JSON
 * `title_params`), so that each reader sees the title in their own language; `title` stays the text written
 * at the time, the fallback and what search finds. A title a person edits loses its code. Existing rows
 * are parsed from their Turkish text.
 */
export const faultTitleCodes: DialectMigration = {
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    await db.schema.alterTable('faults').addColumn('title_code', 'varchar(100)').execute();
    await db.schema.alterTable('faults').addColumn('title_params', 'text').execute();
    await backfillFaultTitleCodes(db);
  },
};
