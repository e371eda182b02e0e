import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialectUnderTest, type TestApp } from '../test/test-app';

const redocly = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../node_modules/.bin/redocly',
);

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

/**
 * Warnings of Redocly's recommended rules that the document keeps on purpose. Any other warning, and any
 * error, fails the test.
 */
const ACCEPTED_WARNINGS = [
  // The path shapes come from the spec's call table the console and other clients already use.
  'no-ambiguous-paths #/paths/~1api~1alarms~1custom~1{id}',
  'no-ambiguous-paths #/paths/~1api~1users~1{id}~1password',
  // No licence is granted, so there is no licence text to link to.
  'info-license-strict #/info/license/url',
  // Health and the public settings (site name, default language for the login page) take no input and no
  // credentials: they have no 4xx answer to declare.
  'operation-4xx-response #/paths/~1api~1health/get/responses',
  'operation-4xx-response #/paths/~1api~1settings~1public/get/responses',
];

/** /api/docs/json linted by a third-party tool (Redocly CLI, recommended rules), as API users would. */
describe(`OpenAPI lint (${dialectUnderTest})`, () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await createTestApp();
    dir = mkdtempSync(path.join(tmpdir(), 'solar-openapi-'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has no error and only the accepted warnings under the recommended rules', async () => {
    const res = await t.app.inject('/api/docs/json');
    expect(res.statusCode).toBe(200);
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, res.body);
    const args = ['lint', '--extends', 'recommended', '--format', 'json', '--max-problems', '10000', file];
    // The CLI exits 1 when it finds errors; its report is on stdout either way.
    const stdout = await promisify(execFile)(redocly, args, {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 64 * 1024 * 1024,
    }).then(
      (out) => out.stdout,
      (error: { stdout?: string }) => error.stdout ?? '',
    );
    const report = JSON.parse(stdout) as { problems: LintProblem[] };
    const where = (p: LintProblem) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}`;
    const errors = report.problems.filter((p) => p.severity === 'error');
    expect(errors.map((p) => `${where(p)}: ${p.message}`)).toEqual([]);
    const warnings = report.problems.filter((p) => p.severity === 'warn').map(where);
    expect(warnings.sort()).toEqual([...ACCEPTED_WARNINGS].sort());
  });

  it('names every operation in camelCase, once, and sums it up', async () => {
    const doc = (await t.app.inject('/api/docs/json')).json<{
      paths: Record<string, Record<string, { operationId?: string; summary?: string }>>;
    }>();
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ at: `${method} ${path}`, ...op })),
    );
    expect(operations.length).toBeGreaterThan(60);
    const bad = operations.filter((op) => !/^[a-z][A-Za-z0-9]+$/.test(op.operationId ?? '') || !op.summary);
    expect(bad.map((op) => op.at)).toEqual([]);
    expect(new Set(operations.map((op) => op.operationId)).size).toBe(operations.length);
  });
});
