import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { XSRF_COOKIE, XSRF_HEADER } from '@solar/shared';
import { buildApp, type BuildOptions } from '../app';
import type { BackgroundWork } from '../background';
import { loadConfig, type AppConfig } from '../config';
import type { BatchWriterThread } from '../telemetry-store/batch-writer';
import type { AppContext } from '../context';
import { ContractChecker, type Answer, type OpenApiDocument } from './openapi-contract';

/** PostgreSQL URL for the server suite's second run; unset means SQLite. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
export const dialectUnderTest = TEST_DATABASE_URL ? 'postgres' : 'sqlite';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** The app's background work (simulator, engine, digest), once ready. */
  background: () => BackgroundWork | undefined;
  /** The telemetry writer thread on SQLite (telemetry-store/batch-writer.ts); undefined on PostgreSQL. */
  telemetryWriter: BatchWriterThread | undefined;
  dataDir: string;
  /** HTTP calls that carry the anti-forgery cookie and header like the console does. */
  http: TestClient;
  /** Messages the mailer wrote to the outbox, oldest first. */
  outbox(): string[];
  close(): Promise<void>;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  xsrf?: boolean;
  remoteAddress?: string;
  query?: Record<string, string>;
}

export class TestClient {
  private xsrf = '';
  /** Every GET answer, held against the OpenAPI document when the app closes (see `contractViolations`). */
  readonly answers: Answer[] = [];
  constructor(private readonly app: FastifyInstance) {}

  /** Fetches the anti-forgery cookie once, as the page load does. */
  async primeXsrf(): Promise<string> {
    if (!this.xsrf) {
      const res = await this.app.inject({ method: 'GET', url: '/api/health' });
      const cookie = res.cookies.find((c) => c.name === XSRF_COOKIE);
      if (!cookie) throw new Error('no XSRF cookie set by /api/health');
      this.xsrf = cookie.value;
    }
    return this.xsrf;
  }

  async call(method: InjectOptions['method'], url: string, options: CallOptions = {}) {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const cookies: Record<string, string> = {};
    if (options.xsrf !== false) {
      const xsrf = await this.primeXsrf();
      cookies[XSRF_COOKIE] = xsrf;
      headers[XSRF_HEADER] = xsrf;
    }
    const res = await this.app.inject({
      method,
      url,
      headers,
      cookies,
      query: options.query,
      remoteAddress: options.remoteAddress,
      ...(options.body === undefined ? {} : { payload: options.body as InjectOptions['payload'] }),
    });
    if (method === 'GET') {
      const json = /json/.test(String(res.headers['content-type']));
      const { statusCode, headers: answerHeaders } = res;
      this.answers.push({
        method,
        path: url,
        statusCode,
        headers: answerHeaders,
        body: json ? res.body : '',
      });
    }
    return res;
  }

  get = (url: string, options?: CallOptions) => this.call('GET', url, options);
  post = (url: string, body?: unknown, options?: CallOptions) => this.call('POST', url, { ...options, body });
  delete = (url: string, options?: CallOptions) => this.call('DELETE', url, options);

  /** Signs in and answers the token; throws with the answer when sign-in fails. */
  async login(email: string, password: string, remoteAddress = '127.0.0.1'): Promise<string> {
    const res = await this.post('/api/users/login', { email, password }, { remoteAddress });
    if (res.statusCode !== 200) throw new Error(`login ${email} failed: ${res.statusCode} ${res.body}`);
    return res.json<{ token: string }>().token;
  }
}

export const DEMO = {
  admin: { email: 'admin@example.com', password: 'Solar!Admin1' },
  operator: { email: 'operator@example.com', password: 'Solar!Operator1' },
} as const;

/**
 * Runs `work` while holding a PostgreSQL advisory lock shared by every test worker. Kysely's introspection
 * looks at the tables of all schemas, and a schema that another worker drops in the middle of that look
 * fails it ("schema … does not exist"): a test's own look at all schemas (the schema drift test) must not
 * overlap the creating and dropping of test schemas. The migrator itself looks only at its own schema
 * (db/migrate.ts).
 */
export async function underSchemaLock<T>(work: () => Promise<T>): Promise<T> {
  if (!TEST_DATABASE_URL) return work();
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(61724)');
    return await work();
  } finally {
    await client.query('select pg_advisory_unlock(61724)').catch(() => undefined);
    await client.end();
  }
}

/**
 * The GET answers a test file received that break what /api/docs/json promises for them (status, media
 * type, schema), one line per distinct violation. Every test file thereby also tests the document against
 * the real answers of the states it builds, which no single contract test could reach. Calls to paths and
 * methods the document does not describe (deliberately unknown routes) are not its promises.
 */
async function contractViolations(app: FastifyInstance, answers: Answer[]): Promise<string[]> {
  const api = answers.filter((a) => /^\/api\//i.test(a.path) && !/^\/api\/docs/i.test(a.path));
  if (api.length === 0) return [];
  const checker = new ContractChecker((await app.inject('/api/docs/json')).json<OpenApiDocument>());
  const violations = new Set<string>();
  for (const answer of api) {
    const path = checker.pathOf(answer.path);
    if (!path || !checker.describes(path, answer.method)) continue;
    const violation = checker.check(answer);
    if (violation) violations.add(violation);
  }
  return [...violations];
}

/**
 * The configuration of a quiet app on a data directory of its own, as an operator's start would read it:
 * its own SQLite file and secret, no demo, simulator or poller; `env` adds to or overrides the variables.
 */
export const quietConfigIn = (dataDir: string, env: Record<string, string> = {}): AppConfig =>
  loadConfig(
    {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      JWT_SECRET: randomBytes(32).toString('hex'),
      DEMO: 'false',
      SIMULATOR: 'false',
      MODBUS_POLLER: 'false',
      ...env,
    },
    {},
  );

/**
 * Builds the real app on a fresh database: a new SQLite file in a temporary directory, or a new schema in
 * the PostgreSQL of TEST_DATABASE_URL, dropped again on close.
 */
export async function createTestApp(
  overrides: Partial<AppConfig> = {},
  options: BuildOptions = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'solar-test-'));
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      JWT_SECRET: randomBytes(32).toString('hex'),
      DEMO: 'true',
      // Background work is off unless a test turns it on through `overrides`.
      SIMULATOR: 'false',
      MODBUS_POLLER: 'false',
      // The test devices and cameras listen on loopback, which production refuses (docs/security.md,
      // "Device networks"); a test of the default overrides `deviceNetworks`.
      DEVICE_NETWORKS_ALLOW: '127.0.0.0/8,::1/128',
      // Suites read their own user (a refresh) and go on with the token they had, for longer than the 30 s
      // a replaced token lives in production on a loaded machine. session-lifetime.test.ts moves the clock
      // past this grace, whatever it is, to prove the retirement.
      SESSION_REFRESH_GRACE_SECONDS: '3600',
      ...(TEST_DATABASE_URL ? { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema } : {}),
    },
    overrides,
  );
  // Like the simulator and the poller, the camera probe runs only when a test asks for it (its options):
  // the demo seed's cameras have fictional addresses on the plants' networks.
  const built = { ...options, cameraProbe: options.cameraProbe ?? { enabled: false } };
  const { app, ctx, background, telemetryWriter } = await underSchemaLock(() => buildApp(config, built));
  await app.ready();
  const outboxDir = config.outboxDir;
  const http = new TestClient(app);
  return {
    app,
    ctx,
    background,
    telemetryWriter,
    dataDir,
    http,
    outbox: () => {
      try {
        return readdirSync(outboxDir)
          .sort()
          .map((f) => readFileSync(path.join(outboxDir, f), 'utf8'));
      } catch {
        return [];
      }
    },
    async close() {
      const violations = await contractViolations(app, http.answers).catch((error: unknown) => [
        `the contract check failed: ${String(error)}`,
      ]);
      try {
        await app.close();
      } finally {
        if (TEST_DATABASE_URL) {
          await underSchemaLock(async () => {
            const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
            await client.connect();
            await client.query(`drop schema if exists "${schema}" cascade`);
            await client.end();
          });
        }
        rmSync(dataDir, { recursive: true, force: true });
      }
      if (violations.length > 0) {
        throw new Error(`Answers that break the OpenAPI document:\n${violations.join('\n')}`);
      }
    },
  };
}
