/**
 * Spreadsheet formula injection (OWASP "CSV Injection"): a text cell beginning with =, +, -, @, tab or CR
 * is run as a formula by Excel and LibreOffice. Shared by every export (reports, telemetry).
 */
export const FORMULA_START = /^[=+\-@\t\r]/;

/** True when a spreadsheet would read the text as a formula. */
export const looksLikeFormula = (text: string) => FORMULA_START.test(text);

/** CSV text: prefixed with ' so that a spreadsheet shows it as text (the OWASP advice for CSV). */
export const csvSafeText = (text: string) => (looksLikeFormula(text) ? `'${text}` : text);

/** A CSV field: quoted when it holds the delimiter, a quote or a line break (RFC 4180). */
export function csvField(text: string, delimiter: string): string {
  return text.includes(delimiter) || /["\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A number in CSV with the chosen decimal separator; no thousands separator, full precision. */
export function csvNumber(value: number, decimalComma: boolean): string {
  const text = String(value);
  return decimalComma ? text.replace('.', ',') : text;
}

/**
 * XLSX text: written as a string cell (never a formula) unchanged, no visible '. A text that looks like a
 * formula also gets the Text number format `@`, so that editing the cell in Excel keeps it text instead
 * of running it (a signal unit such as `=1+1`).
 */
export const XLSX_TEXT_FORMAT = '@';
