import { execFileSync } from 'node:child_process';
import { expect } from 'vitest';

/*
 * Readers of report files that are not the code that wrote them: the reports' and the fleet loss tests
 * check the files through these.
 */

/** A CSV as rows of cells (no quoted delimiters in these reports' texts). */
export function parseCsv(text: string, delimiter: string): string[][] {
  expect(text.startsWith('\uFEFF')).toBe(true);
  return text
    .slice(1)
    .split('\r\n')
    .filter((l) => l !== '')
    .map((l) => l.split(delimiter));
}

/**
 * What a strict reader that is not exceljs finds wrong in a workbook: openpyxl (Debian's python3-openpyxl)
 * opens it (loading fails on a broken workbook, a NaN in a date cell too), and below the header row every
 * cell is typed: numbers finite and with a number format (not General), dates real dates, no number
 * written as text, and each column of one type (the totals row's bold label in the first column aside).
 */
export function strictXlsxProblems(xlsx: Buffer): string[] {
  const script = `
import io, json, math, re, sys
from openpyxl import load_workbook
wb = load_workbook(io.BytesIO(sys.stdin.buffer.read()))
bad = []
for ws in wb.worksheets:
    rows = list(ws.iter_rows(min_row=2))
    for col in range(ws.max_column):
        kinds = set()
        for i, row in enumerate(rows):
            c = row[col]
            v = c.value
            if v is None:
                continue
            if col == 0 and i == len(rows) - 1 and isinstance(v, str) and c.font.b:
                continue
            where = f"{ws.title}!{c.coordinate}={v!r}"
            if c.is_date:
                kind = "date"
            elif isinstance(v, (int, float)) and not isinstance(v, bool):
                kind = "number"
                if not math.isfinite(v):
                    bad.append(f"{where}: not finite")
            elif isinstance(v, str):
                kind = "text"
                if re.fullmatch(r"[-+]?[0-9][0-9.,]*%?", v.strip()):
                    bad.append(f"{where}: a number written as text")
            else:
                kind = type(v).__name__
                bad.append(f"{where}: a {kind} cell")
            if kind in ("number", "date") and c.number_format == "General":
                bad.append(f"{where}: no number format")
            kinds.add(kind)
        if len(kinds) > 1:
            bad.append(f"{ws.title} column {col + 1} mixes {sorted(kinds)}")
print(json.dumps(bad))
`;
  // Debian's own Python, where python3-openpyxl installs (a python3 earlier on PATH may be another one).
  return JSON.parse(
    execFileSync('/usr/bin/python3', ['-c', script], { input: xlsx }).toString('utf8'),
  ) as string[];
}

/** pdftotext (poppler-utils) of the PDF, layout kept so table rows stay on one line. */
export function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', '-', '-'], { input: pdf }).toString('utf8');
}

/** Every sheet's cell values as openpyxl reads them (dates as ISO text), by sheet title, header row first. */
export function xlsxValues(xlsx: Buffer): Record<string, (string | number | null)[][]> {
  const script = `
import io, json, sys, datetime
from openpyxl import load_workbook
wb = load_workbook(io.BytesIO(sys.stdin.buffer.read()))
plain = lambda v: v.isoformat() if isinstance(v, (datetime.date, datetime.datetime)) else v
print(json.dumps({ws.title: [[plain(c.value) for c in row] for row in ws.iter_rows()] for ws in wb.worksheets}))
`;
  return JSON.parse(
    execFileSync('/usr/bin/python3', ['-c', script], { input: xlsx }).toString('utf8'),
  ) as Record<string, (string | number | null)[][]>;
}
