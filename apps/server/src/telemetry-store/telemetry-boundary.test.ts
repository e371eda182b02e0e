import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Telemetry is read only through the store (docs/architecture.md, "Telemetry"): no server source outside
 * `telemetry-store/` names a telemetry table, so the tables' layout (partitions, rollup levels, a future
 * storage engine) can change in one folder. The schema itself (db/: migrations, schema.ts) names them, and
 * tests and their helpers may, to seed or inspect data.
 */
const SRC = path.resolve(import.meta.dirname, '..');
const ALLOWED_DIRS = ['telemetry-store', 'db', 'test'].map((d) => path.join(SRC, d));

/** The telemetry tables, as the schema's Database interface lists them (so a new one is covered too). */
function telemetryTables(): string[] {
  const schema = readFileSync(path.join(SRC, 'db', 'schema.ts'), 'utf8');
  const database = /export interface Database \{([^}]*)\}/.exec(schema)?.[1] ?? '';
  return [...database.matchAll(/^\s*(telemetry_\w+)\s*:/gm)].map((m) => m[1]!);
}

/** Server sources the rule covers: everything but the allowed folders and tests. */
function coveredSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ALLOWED_DIRS.includes(full) ? [] : coveredSources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Where `source` names a telemetry table (`telemetry_1d`, a partition `telemetry_raw_p202601`, or a name built as `telemetry_${…}`). */
function telemetryTableMentions(source: string, tables: readonly string[]): string[] {
  const names = new RegExp(`\\b(?:${tables.join('|')})\\w*|telemetry_\\$\\{`, 'g');
  return source.match(names) ?? [];
}

describe('the telemetry store boundary', () => {
  const tables = telemetryTables();

  it('reads the telemetry tables from the schema', () => {
    expect(tables).toEqual(
      expect.arrayContaining([
        'telemetry_raw',
        'telemetry_latest',
        'telemetry_5m',
        'telemetry_1h',
        'telemetry_1d',
      ]),
    );
  });

  it('finds a table named in a query, a comment or a built name', () => {
    expect(telemetryTableMentions(`db.selectFrom('telemetry_1d')`, tables)).toEqual(['telemetry_1d']);
    expect(telemetryTableMentions('// telemetry_raw_p202601 holds January', tables)).toEqual([
      'telemetry_raw_p202601',
    ]);
    expect(telemetryTableMentions('sql.table(`telemetry_${resolution}`)', tables)).toEqual(['telemetry_${']);
    expect(telemetryTableMentions(`fromTelemetry(db, '1d', 'daily')`, tables)).toEqual([]);
  });

  it('names no telemetry table outside telemetry-store/, db/ and tests', () => {
    const offenders = coveredSources(SRC).flatMap((file) =>
      telemetryTableMentions(readFileSync(file, 'utf8'), tables).map(
        (name) => `${path.relative(SRC, file)}: ${name}`,
      ),
    );
    expect(offenders).toEqual([]);
  });
});
