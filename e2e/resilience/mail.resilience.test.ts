/**
 * Mail and schedules (outside attack, 2026-11-28), over HTTP against the built server: the console is no
 * spam relay. A burst of 100 report subscriptions is cut at the per-user limit; a burst of mails to one
 * outside address is cut at its daily budget, and the cut holds across a restart on the same database; a
 * user name with a link and a forged header line reaches the reset mail as plain text on one line; HSTS is
 * sent for an https PUBLIC_URL; ingest answers a foreign signal id as a missing one. Figures are printed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, emlText } from '../src/console';
import {
  adminClient,
  databaseEnv,
  ingestTargets,
  removeDataDir,
  report,
  sleep,
  startConsole,
  type ConsoleProcess,
} from './harness';

const MAIL_DAILY_LIMIT = 5;
const PER_USER = 20;
const PASSWORD = 'Mail!Attack1';
const figures: Record<string, number> = {};

/** A raw call: status, headers and text, never thrown. */
async function call(
  url: string,
  method: string,
  options: { client?: ApiClient; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.client) {
    Object.assign(headers, options.client.xsrfHeaders());
    headers.authorization = `Bearer ${options.client.sessionToken}`;
  }
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method,
    headers,
    body: options.body === undefined ? null : JSON.stringify(options.body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('mail and schedules against the built server', () => {
  let server: ConsoleProcess;
  let admin: ApiClient;
  const env = {
    ...databaseEnv(),
    PUBLIC_URL: 'https://console.example.test',
    MAIL_DAILY_LIMIT: String(MAIL_DAILY_LIMIT),
    REPORT_SCHEDULES_PER_USER: String(PER_USER),
  };
  const api = (p: string) => `${server.url}${p}`;
  const outbox = () => {
    const dir = path.join(server.dataDir, 'outbox');
    try {
      return readdirSync(dir)
        .sort()
        .map((f) => readFileSync(path.join(dir, f), 'utf8'));
    } catch {
      return [];
    }
  };

  beforeAll(async () => {
    server = await startConsole({ env });
    admin = await adminClient(server.url);
  });
  afterAll(async () => {
    await server?.stop();
    if (server) removeDataDir(server.dataDir);
    report('mail', figures);
  });

  /** A user of the first demo plant's company whose role may view reports, signed in, and that plant. */
  async function reportReader(tag: string, name = 'Mail') {
    const { items } = await admin.get<{ items: { id: number; company_id: number }[] }>('plants?pageSize=1');
    const plant = items[0]!;
    const role = await admin.post<{ id: number }>('roles/0', {
      name: `mail ${tag}`,
      permissions: [{ page: 'report', method: 'view' }],
    });
    const email = `mail-${tag}@example.com`;
    await admin.post('users/0', {
      name,
      surname: tag,
      username: `mail-${tag}`,
      telephone: '+90 555 000 00 00',
      email,
      role_id: role.id,
      company_id: plant.company_id,
      password: PASSWORD,
    });
    return { email, plantId: plant.id, client: await ApiClient.login(server.url, email, PASSWORD) };
  }

  it('cuts a burst of 100 subscriptions at the per-user limit', async () => {
    const { client, plantId } = await reportReader('burst');
    const body = {
      report_type: 'production',
      plant_ids: [plantId],
      frequency: 'daily',
      local_time: '07:00',
    };
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => call(api('/api/report-schedules/0'), 'POST', { client, body })),
    );
    figures.burstMs = Math.round(performance.now() - started);
    const statuses = answers.map((a) => a.status);
    figures.subscriptionsCreated = statuses.filter((s) => s === 200).length;
    figures.subscriptionsRefused = statuses.filter((s) => s === 409).length;
    expect(figures.subscriptionsCreated).toBe(PER_USER);
    expect(figures.subscriptionsRefused).toBe(100 - PER_USER);
    expect(answers.find((a) => a.status === 409)!.text).toContain('reportSchedules.errors.tooManyForUser');
    const { total } = await client.get<{ total: number }>('report-schedules');
    expect(total).toBe(PER_USER);
  });

  it('cuts a burst of mails to one outside address at its daily budget, across a restart', async () => {
    const before = outbox().length;
    const to = 'victim@outside.example';
    const burst = async () =>
      Promise.all(
        Array.from({ length: 30 }, () =>
          call(api('/api/admin/settings/test-mail'), 'POST', { client: admin, body: { to } }),
        ),
      );
    const first = await burst();
    figures.mailsSent = first.filter((a) => a.status === 200).length;
    figures.mailsHeld = first.filter((a) => a.status === 429).length;
    expect(figures.mailsSent).toBe(MAIL_DAILY_LIMIT);
    expect(figures.mailsHeld).toBe(30 - MAIL_DAILY_LIMIT);
    expect(outbox().length - before).toBe(MAIL_DAILY_LIMIT);

    // Restarted on the same data: the count was in the database.
    await server.stop();
    server = await startConsole({ dataDir: server.dataDir, port: server.port, env });
    admin = await adminClient(server.url);
    const again = await burst();
    expect(again.every((a) => a.status === 429)).toBe(true);
    expect(outbox().length - before).toBe(MAIL_DAILY_LIMIT);
  });

  it('puts a user name with a link and a forged header line into the reset mail as one plain line', async () => {
    const name = 'Click http://evil.example/\r\nBcc: x';
    const { email } = await reportReader('name', name);
    const before = outbox().length;
    const reset = await call(api('/api/users/resetpasswordrequest'), 'POST', {
      body: { email },
      headers: admin.xsrfHeaders(),
    });
    expect(reset.status).toBe(200);
    for (let waited = 0; outbox().length === before && waited < 5000; waited += 100) await sleep(100);
    const eml = outbox().slice(before)[0]!;
    const head = eml.split(/\r?\n\r?\n/)[0]!;
    expect(head).not.toMatch(/^bcc:/im);
    const text = emlText(eml);
    expect(text).not.toMatch(/evil/i);
    expect(text).not.toMatch(/^Bcc: x/m);
    expect(text).toContain('Click Bcc: x');
  });

  it('sends Strict-Transport-Security for an https PUBLIC_URL', async () => {
    for (const p of ['/api/health', '/', '/login']) {
      const res = await fetch(api(p));
      expect(res.headers.get('strict-transport-security'), p).toBe('max-age=31536000');
    }
  });

  it("answers another plant's signal id exactly as one that does not exist", async () => {
    const [mine, other] = await ingestTargets(admin, 2);
    expect(other, 'the demo has two plants with signals').toBeDefined();
    const ingest = async (signalId: number) => {
      const res = await call(api('/api/telemetry'), 'POST', {
        headers: { 'x-api-key': mine!.key },
        body: { points: [{ signal_id: signalId, ts: Date.now() - 60_000, value: 1 }] },
      });
      expect(res.status).toBe(200);
      return res.text.replace(String(signalId), 'ID');
    };
    const foreign = await ingest(other!.signals[0]!);
    const missing = await ingest(2_000_000_000);
    expect(foreign).toBe(missing);
    expect(foreign).toContain('unknown_signal');
  });
});
