import type { AuditEntry } from '@solar/shared';

/** Text a spreadsheet would run as a formula (=, +, -, @, tab, CR) is prefixed with ' (OWASP CSV injection). */
export function safeText(v: string): string {
  return /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
}

/** One CSV field (RFC 4180): quoted when it holds a quote, comma or line break. */
export function csvCell(v: string | number | null): string {
  if (v === null) return '';
  if (typeof v === 'number') return String(v);
  const text = safeText(v);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

export const AUDIT_CSV_COLUMNS = [
  'at_utc',
  'user_id',
  'user_name',
  'action',
  'entity',
  'entity_id',
  'ip',
  'before',
  'after',
] as const;

/**
 * The audit log as CSV: CRLF, UTF-8 with a BOM so spreadsheets read Turkish and Cyrillic names, every
 * text field guarded against formula injection (names, entities and the JSON of before and after are all
 * typed by users).
 */
export function auditCsv(entries: readonly AuditEntry[]): string {
  const lines = [AUDIT_CSV_COLUMNS.join(',')];
  for (const e of entries) {
    lines.push(
      [e.at, e.user_id, e.user_name, e.action, e.entity, e.entity_id, e.ip, json(e.before), json(e.after)]
        .map(csvCell)
        .join(','),
    );
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
