import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import trTR from '../../../../packages/i18n/locales/tr_TR.json';
import { createTestApp, dialectUnderTest, DEMO, type TestApp } from './test-app';

/**
 * The date hole class of the outside attack (docs/security.md "Dates and ranges"): one GET with a date far
 * outside the calendar hung the server (a date loop that never ended), grew it by gigabytes or answered
 * 500. This walks the API document, not a hand list, so a route added later is covered by the same test:
 * every query parameter and top-level body field that is a date (`format: date`), an instant
 * (`format: date-time`) or a year gets extreme, invalid and reversed values, and each must answer 400
 * naming that field within a second.
 */

/** Far outside the accepted range 2000-01-01 … 2100-12-31, or just outside it. */
const EXTREME_DATES = ['9999-12-31', '0000-01-01', '0001-01-01', '+010000-01-01', '1999-12-31', '2101-01-01'];
const INVALID_DATES = ['2026-02-30', '2026-13-01', 'garbage'];
/** Instants take dates too; these are the same extremes as date-times and epoch milliseconds. */
const EXTREME_INSTANTS = [
  '9999-12-31T23:59:59Z',
  '0000-01-01T00:00:00Z',
  '+010000-01-01T00:00:00Z',
  '1999-12-31T23:59:59.999Z',
  '2101-01-01T00:00:00Z',
  '253402300799999',
  '0',
  '2026-02-30T00:00:00Z',
  '2026-06-01T25:00:00Z',
];
const EXTREME_YEARS = [9999, 0, 1, 10000, 1999, 2101];
const INVALID_YEARS = ['garbage', '2026-02-30', '2026.5'];
const ANSWER_WITHIN_MS = 1000;

type JsonSchema = {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  minimum?: number;
  minLength?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};
interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  schema: JsonSchema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema: JsonSchema }> };
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

type DateKind = 'date' | 'instant' | 'year';
interface DateInput {
  where: 'query' | 'body';
  name: string;
  kind: DateKind;
}
interface DateRoute {
  method: string;
  /** Path with its parameters filled in. */
  url: string;
  query: Record<string, string>;
  body: Record<string, unknown> | undefined;
  inputs: DateInput[];
}

const formats = (schema: JsonSchema): string[] => [
  ...(schema.format ? [schema.format] : []),
  ...(schema.anyOf ?? []).flatMap(formats),
];

/**
 * What kind of date an input is, from its schema; its name as a fallback, so that a date field written
 * without the shared helpers (no `format`) is walked as well, and fails.
 */
function dateKind(name: string, schema: JsonSchema): DateKind | undefined {
  const f = formats(schema);
  if (f.includes('date-time')) return 'instant';
  if (f.includes('date')) return 'date';
  if (name === 'year') return 'year';
  if (/^(from|to|date)$|_date$/.test(name)) return 'date';
  if (/_at$/.test(name)) return 'instant';
  return undefined;
}

const END_NAMES: Record<string, string> = { from: 'to', started_at: 'end_at' };

/** A value the schema accepts for an input that is not under test (its first enum value, an id, …). */
function sampleOf(name: string, schema: JsonSchema, ids: Ids): unknown {
  const kind = dateKind(name, schema);
  const isEnd = Object.values(END_NAMES).includes(name);
  if (kind === 'date') return isEnd ? '2026-06-30' : '2026-06-01';
  if (kind === 'instant') return isEnd ? '2026-06-02T00:00:00Z' : '2026-06-01T00:00:00Z';
  if (kind === 'year') return schema.type === 'string' ? '2026' : 2026;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf?.length) return sampleOf(name, schema.anyOf[0]!, ids);
  if (name === 'signal_ids') return String(ids.signalId);
  if (name === 'plant_ids' || name === 'plant_id') return String(ids.plantId);
  if (schema.type === 'integer' || schema.type === 'number') return Math.max(schema.minimum ?? 1, 1);
  if (schema.type === 'boolean') return true;
  if (schema.type === 'array') return [];
  if (schema.type === 'object') return {};
  return 'x'.repeat(Math.max(schema.minLength ?? 1, 1));
}

interface Ids {
  plantId: number;
  deviceId: number;
  signalId: number;
}

/** A path parameter's value: a real id, the first of an enum, a country. */
function pathValue(parameter: Parameter, ids: Ids, path: string): string {
  if (parameter.schema.enum) return String(parameter.schema.enum[0]);
  if (parameter.name === 'country') return 'TR';
  if (parameter.name === 'id') {
    if (path.startsWith('/api/devices/') || path.startsWith('/api/inverters/')) return String(ids.deviceId);
    if (path.startsWith('/api/signals/')) return String(ids.signalId);
    return String(ids.plantId);
  }
  throw new Error(`no sample for the path parameter ${parameter.name} of ${path}`);
}

/** Every operation of the document that takes a date, an instant or a year in its query or body. */
function dateRoutes(document: Document, ids: Ids): DateRoute[] {
  const resolve = (schema: JsonSchema): JsonSchema =>
    schema.$ref ? resolve(document.components!.schemas![schema.$ref.split('/').pop()!]!) : schema;
  const routes: DateRoute[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const parameters = operation.parameters ?? [];
      const inputs: DateInput[] = [];
      const query: Record<string, string> = {};
      for (const p of parameters.filter((x) => x.in === 'query')) {
        const kind = dateKind(p.name, p.schema);
        if (kind) inputs.push({ where: 'query', name: p.name, kind });
        if (kind || p.required || p.name === 'plant_id')
          query[p.name] = String(sampleOf(p.name, p.schema, ids));
      }
      let body: Record<string, unknown> | undefined;
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
      const properties = bodySchema ? resolve(bodySchema).properties : undefined;
      if (properties) {
        body = {};
        const required = new Set(resolve(bodySchema!).required ?? []);
        for (const [name, schema] of Object.entries(properties)) {
          const kind = dateKind(name, resolve(schema));
          if (kind) inputs.push({ where: 'body', name, kind });
          if (kind || required.has(name)) body[name] = sampleOf(name, resolve(schema), ids);
        }
      }
      if (!inputs.length) continue;
      let url = path;
      for (const p of parameters.filter((x) => x.in === 'path'))
        url = url.replace(`{${p.name}}`, encodeURIComponent(pathValue(p, ids, path)));
      routes.push({ method: method.toUpperCase(), url, query, body, inputs });
    }
  }
  return routes;
}

/** The values each kind of input is sent, in the form its place (query or body) carries them. */
function badValues(input: DateInput): unknown[] {
  if (input.kind === 'year')
    return input.where === 'query'
      ? [...EXTREME_YEARS.map(String), ...INVALID_YEARS]
      : [...EXTREME_YEARS, ...INVALID_YEARS, 2026.5];
  const dates = [...EXTREME_DATES, ...INVALID_DATES];
  return input.kind === 'instant' ? [...dates, ...EXTREME_INSTANTS] : dates;
}

/** The reversed pair of a route's range inputs, if it has both ends. */
function reversedOf(route: DateRoute): { end: string; values: Record<string, unknown> } | undefined {
  for (const [start, end] of Object.entries(END_NAMES)) {
    const a = route.inputs.find((i) => i.name === start);
    const b = route.inputs.find((i) => i.name === end);
    if (!a || !b || a.where !== b.where) continue;
    const values =
      a.kind === 'date'
        ? { [start]: '2026-06-30', [end]: '2026-06-01' }
        : { [start]: '2026-06-02T00:00:00Z', [end]: '2026-06-01T00:00:00Z' };
    return { end, values };
  }
  return undefined;
}

const translatable = (key: string) =>
  key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], trTR) !==
  undefined;

describe(
  `dates and ranges on every route that takes them (${dialectUnderTest})`,
  { timeout: 300_000 },
  () => {
    let t: TestApp;
    let token: string;
    let routes: DateRoute[];

    beforeAll(async () => {
      t = await createTestApp();
      token = await t.http.login(DEMO.admin.email, DEMO.admin.password);
      const first = async (table: 'plants' | 'devices' | 'signals') =>
        (await t.ctx.db.selectFrom(table).select('id').orderBy('id').executeTakeFirstOrThrow()).id;
      const ids = {
        plantId: await first('plants'),
        deviceId: await first('devices'),
        signalId: await first('signals'),
      };
      const document = (await t.app.inject('/api/docs/json')).json<Document>();
      routes = dateRoutes(document, ids);
    });
    afterAll(() => t.close());

    /** A new ingest key of the first plant (the previous one stops working). */
    async function freshPlantKey(): Promise<string> {
      const plant = await t.ctx.db.selectFrom('plants').select('id').orderBy('id').executeTakeFirstOrThrow();
      const res = await t.http.post(`/api/plants/${plant.id}/ingest-key`, {}, { token });
      return res.json<{ key: string }>().key;
    }

    /** Sends the route with some inputs replaced; answers the status, the field errors and the time taken. */
    async function send(route: DateRoute, where: 'query' | 'body', values: Record<string, unknown>) {
      const query = { ...route.query };
      const body = route.body && { ...route.body };
      for (const [name, value] of Object.entries(values)) {
        if (where === 'query') query[name] = String(value);
        else body![name] = value;
      }
      // The edge agent's routes take a plant key only (docs/edge.md), at most 20 calls a minute per key:
      // each call gets a key of its own, so the limit never answers before the validation does.
      const sender = route.url.startsWith('/api/edge/')
        ? { headers: { 'x-api-key': await freshPlantKey() }, xsrf: false as const }
        : { token };
      const started = performance.now();
      const res = await t.http.call(route.method, route.url, {
        ...sender,
        query,
        ...(body ? { body } : {}),
      });
      const ms = performance.now() - started;
      const problem = /json/.test(String(res.headers['content-type']))
        ? res.json<{ errors?: Record<string, string[]> }>()
        : {};
      return { status: res.statusCode, errors: problem.errors ?? {}, ms };
    }

    it('finds the date-taking routes in the document', () => {
      const names = routes.map((r) => `${r.method} ${r.url.replace(/\/\d+/g, '/{id}')}`);
      // Telemetry (query, export, energy), alarms (list, custom rule), faults, audit (list, export), KPIs
      // (kpis, power, inverter summary), reports, plants, budgets (read, write) and CO₂ factors at least.
      expect(routes.length, names.join('\n')).toBeGreaterThanOrEqual(16);
      for (const expected of [
        'GET /api/telemetry/energy',
        'GET /api/reports/production',
        'GET /api/plants/{id}/kpis',
        'POST /api/plants/{id}',
        'GET /api/plants/{id}/budgets',
      ])
        expect(names).toContain(expected);
    });

    it('answers 400 naming the field, in a translatable message, within a second, to every bad date', async () => {
      const failures: string[] = [];
      let sent = 0;
      for (const route of routes) {
        for (const input of route.inputs) {
          for (const value of badValues(input)) {
            const { status, errors, ms } = await send(route, input.where, { [input.name]: value });
            sent++;
            const messages = errors[input.name] ?? [];
            const what = `${route.method} ${route.url} ${input.where} ${input.name}=${JSON.stringify(value)}`;
            if (status !== 400 || !messages.length)
              failures.push(`${what}: ${status} ${JSON.stringify(errors)}`);
            else if (!messages.every(translatable)) failures.push(`${what}: untranslated ${messages.join()}`);
            if (ms > ANSWER_WITHIN_MS) failures.push(`${what}: took ${Math.round(ms)} ms`);
          }
        }
      }
      expect(failures).toEqual([]);
      expect(sent).toBeGreaterThan(200);
    });

    it('answers 400 within a second when both ends of a range are the same bad date', async () => {
      // The attack's own form: from=to=9999-12-31 is no reversed range, and once hung the server for good.
      const failures: string[] = [];
      for (const route of routes) {
        for (const [start, end] of Object.entries(END_NAMES)) {
          const input = route.inputs.find((i) => i.name === start);
          if (!input || !route.inputs.some((i) => i.name === end)) continue;
          for (const value of badValues(input)) {
            const { status, errors, ms } = await send(route, input.where, { [start]: value, [end]: value });
            const what = `${route.method} ${route.url} ${start}=${end}=${JSON.stringify(value)}`;
            if (status !== 400 || !(errors[start] ?? errors[end]))
              failures.push(`${what}: ${status} ${JSON.stringify(errors)}`);
            if (ms > ANSWER_WITHIN_MS) failures.push(`${what}: took ${Math.round(ms)} ms`);
          }
        }
      }
      expect(failures).toEqual([]);
    });

    it('answers 400 on the end of every reversed range, and accepts the same range in order', async () => {
      const failures: string[] = [];
      let reversed = 0;
      for (const route of routes) {
        const pair = reversedOf(route);
        if (!pair) continue;
        reversed++;
        const where = route.inputs.find((i) => i.name === pair.end)!.where;
        const { status, errors, ms } = await send(route, where, pair.values);
        const what = `${route.method} ${route.url} ${JSON.stringify(pair.values)}`;
        if (status !== 400 || !errors[pair.end]?.includes('validation.rangeOrder'))
          failures.push(`${what}: ${status} ${JSON.stringify(errors)}`);
        if (ms > ANSWER_WITHIN_MS) failures.push(`${what}: took ${Math.round(ms)} ms`);
      }
      expect(failures).toEqual([]);
      // Telemetry (2), energy, alarms, custom rules, faults, audit (2) and reports.
      expect(reversed).toBeGreaterThanOrEqual(9);
    });

    it('refuses an ingested point from before 2000 even with a century of raw retention', async () => {
      const signal = await t.ctx.db
        .selectFrom('signals')
        .select(['id', 'device_id'])
        .orderBy('id')
        .executeTakeFirstOrThrow();
      const settings = (await t.http.get('/api/admin/settings', { token })).json<Record<string, unknown>>();
      const { smtp_password_set: _set, updated_at: _at, ...body } = settings;
      const saved = await t.http.post(
        '/api/admin/settings',
        { ...body, raw_retention_days: 36_500 },
        { token },
      );
      expect(saved.statusCode, saved.body).toBe(200);
      const key = (await t.http.post(`/api/devices/${signal.device_id}/ingest-key`, {}, { token })).json<{
        key: string;
      }>().key;
      const points = [Date.UTC(1999, 5, 1), Date.UTC(1980, 0, 1)].map((ts) => ({
        signal_id: signal.id,
        ts,
        value: 1,
      }));
      const res = await t.http.post(
        '/api/telemetry',
        { points },
        { headers: { 'x-api-key': key }, xsrf: false },
      );
      expect(res.statusCode, res.body).toBe(200);
      const answer = res.json<{ stored: number; rejected: { reason: string }[] }>();
      expect(answer.stored).toBe(0);
      expect(answer.rejected.map((r) => r.reason)).toEqual(['too_old', 'too_old']);
    });

    it('still answers the range ends and the plain query', async () => {
      const energy = routes.find((r) => r.url.endsWith('/telemetry/energy'))!;
      for (const [from, to] of [
        ['2000-01-01', '2000-01-31'],
        ['2100-12-01', '2100-12-31'],
      ]) {
        const { status, ms } = await send(energy, 'query', { from, to });
        expect(status).toBe(200);
        expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
      }
      const kpis = routes.find((r) => r.url.endsWith('/kpis'))!;
      for (const period of ['day', 'month', 'year'])
        for (const date of ['2000-01-01', '2100-12-31', '2024-02-29']) {
          const { status } = await send(kpis, 'query', { period, date });
          expect(status, `${period} ${date}`).toBe(200);
        }
      expect((await t.http.get('/api/health')).statusCode).toBe(200);
    });
  },
);
