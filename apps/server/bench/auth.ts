/**
 * bench:auth — what loading the caller costs per authenticated request, the old way against the
 * new, interleaved in one process so both see the same load:
 *   old: the session user, then its role's permissions and its units in parallel (3 queries, 2 round trips);
 *   new: findSessionCaller, one statement (modules/auth/session.repository.ts).
 * The user holds every permission of ALL_PERMISSIONS (the most a role can hold) and three units. Prints the
 * median and p95 of BENCH_RUNS sequential calls (1,000) of each, then the time per call with
 * BENCH_CONCURRENCY (16) calls in flight (the pool's 10 connections shared, as under real load), and the load
 * average. Against PostgreSQL when DATABASE_URL is set. An analysis tool (docs/benchmarks.md), no figure
 * for the generated block.
 */
import { loadavg } from 'node:os';
import { ALL_PERMISSIONS } from '@solar/shared';
import {
  findRolePermissions,
  findSessionCaller,
  findSessionUser,
  findUserUnits,
} from '../src/modules/auth/session.repository';
import { benchApp } from './setup';

const RUNS = Number(process.env.BENCH_RUNS ?? 1_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const DATABASE_URL = process.env.DATABASE_URL;

const { app, ctx, dispose } = await benchApp(DATABASE_URL);
const { db, dialect } = ctx;
const now = Date.now();
const role = await db
  .insertInto('roles')
  .values({ name: 'auth-bench', description: null, is_admin: 0, created_at: now, updated_at: now })
  .returning('id')
  .executeTakeFirstOrThrow();
await db
  .insertInto('role_permissions')
  .values(ALL_PERMISSIONS.map((p) => ({ role_id: role.id, page: p.page, method: p.method })))
  .execute();
const user = await db
  .insertInto('users')
  .values({
    name: 'Auth',
    surname: 'Bench',
    username: 'auth-bench',
    telephone: '+90 555 000 00 00',
    email: 'auth-bench@example.com',
    password_hash: 'x',
    language_id: 1,
    is_active: 1,
    role_id: role.id,
    company_id: null,
    tokens_valid_after: 0,
    created_at: now,
    updated_at: now,
  })
  .returning('id')
  .executeTakeFirstOrThrow();
await db
  .insertInto('user_units')
  .values([1, 2, 3].map((id) => ({ user_id: user.id, unit_type: 'plant', unit_id: id })))
  .execute();

const old = async () => {
  const row = await findSessionUser(db, user.id);
  if (!row) throw new Error('no user');
  const [permissions, units] = await Promise.all([
    findRolePermissions(db, row.roleId),
    findUserUnits(db, row.id),
  ]);
  return permissions.length + units.length;
};
const one = async () => {
  const row = await findSessionCaller(db, dialect, user.id);
  if (!row) throw new Error('no user');
  return row.permissions.length + row.units.length;
};
if ((await old()) !== (await one())) throw new Error('the two ways disagree');

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)]!;
const f = (ms: number) => ms.toFixed(3);

console.log(
  `${dialect}: ${ALL_PERMISSIONS.length} permissions, 3 units, ${RUNS} runs each, load average ${load()}`,
);
const times = { old: [] as number[], one: [] as number[] };
for (let i = 0; i < RUNS + 50; i++) {
  for (const [name, run] of i % 2
    ? ([
        ['one', one],
        ['old', old],
      ] as const)
    : ([
        ['old', old],
        ['one', one],
      ] as const)) {
    const s = performance.now();
    await run();
    if (i >= 50) times[name].push(performance.now() - s);
  }
}
for (const name of ['old', 'one'] as const) {
  console.log(
    `  ${name}: sequential median ${f(pct(times[name], 0.5))} ms, p95 ${f(pct(times[name], 0.95))} ms`,
  );
}

async function concurrent(run: () => Promise<number>): Promise<number> {
  const per = Math.ceil(RUNS / CONCURRENCY);
  const s = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = 0; i < per; i++) await run();
    }),
  );
  return (performance.now() - s) / (per * CONCURRENCY);
}
for (let round = 0; round < 2; round++) {
  const o = await concurrent(old);
  const n = await concurrent(one);
  console.log(
    `  ${CONCURRENCY} in flight, round ${round + 1}: old ${f(o)} ms per call, one ${f(n)} ms per call (load ${load()})`,
  );
}

await app.close();
await dispose();
