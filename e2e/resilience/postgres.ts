/**
 * A PostgreSQL the faults suite may stop and start. By default a private cluster of its own (initdb in a
 * temporary directory, on a free port, run as the `postgres` system user when the suite runs as root), so
 * that stopping it disturbs nobody. With RESILIENCE_PG_CONTROL=1 the machine's cluster 15/main itself,
 * through pg_ctlcluster: only where nothing else uses it.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { freePort } from './harness';

export interface ControlledPostgres {
  url: string;
  stop(): void;
  start(): void;
  /** Stops a private cluster and removes it (the machine's cluster is left running). */
  dispose(): void;
}

function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root).sort().at(-1);
  return version ? path.join(root, version, 'bin') : undefined;
}

/** Whether the suite can stop a PostgreSQL: the machine's with RESILIENCE_PG_CONTROL=1, else a private one. */
export const postgresControllable = (): boolean =>
  process.env.RESILIENCE_PG_CONTROL === '1' || existsSync(path.join(binDir() ?? '/nonexistent', 'initdb'));

export async function controlledPostgres(): Promise<ControlledPostgres> {
  if (process.env.RESILIENCE_PG_CONTROL === '1') {
    const ctl = (action: string) =>
      execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', '15', 'main', action], {
        stdio: 'inherit',
      });
    return {
      url: process.env.RESILIENCE_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
      stop: () => ctl('stop'),
      start: () => ctl('start'),
      dispose: () => undefined,
    };
  }
  const bin = binDir()!;
  const dir = mkdtempSync(path.join(tmpdir(), 'solar-resilience-pg-'));
  const port = await freePort();
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const ids = execFileSync('id', ['-u', 'postgres']).toString().trim();
    const gid = execFileSync('id', ['-g', 'postgres']).toString().trim();
    chownSync(dir, Number(ids), Number(gid));
  }
  const run = (tool: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args], { stdio: 'pipe' })
      : execFileSync(path.join(bin, tool), args, { stdio: 'pipe' });
  const data = path.join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () => run('pg_ctl', ['-D', data, '-o', options, '-w', '-l', path.join(dir, 'log'), 'start']);
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    dispose() {
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
