/**
 * A Mosquitto of the test's (or the bench's) own, started with the shipped broker configuration
 * (.ci/mosquitto.conf) on a free port. The machine's broker on 1883 runs Mosquitto's defaults, which drop
 * what a data logger's buffer holds beyond 1,000 queued messages; what the product promises is measured
 * against the configuration it ships.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MOSQUITTO_BIN = process.env.MOSQUITTO_BIN ?? '/usr/sbin/mosquitto';
/** Whether the broker binary is there (the tests that need their own broker skip, and say so, without). */
export const mosquittoAvailable = existsSync(MOSQUITTO_BIN);

export const SHIPPED_MOSQUITTO_CONF = fileURLToPath(
  new URL('../../../../.ci/mosquitto.conf', import.meta.url),
);

export interface OwnBroker {
  url: string;
  /** The broker's persistence file (mosquitto.db) lives here, one directory per broker. */
  dir: string;
  /** Stops the broker as a service manager does (SIGTERM: it saves its sessions) and starts it again. */
  restart(): Promise<void>;
  /** Kills the broker with SIGKILL, as a power cut would: what it held in memory since its last save is gone. */
  crash(): Promise<void>;
  /** Starts it again on the same port and directory after `crash`. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/**
 * Starts Mosquitto with the shipped configuration on a free port; `extra` lines are appended (a test of
 * the drop counter sets a small queue with them). Resolves once it accepts connections. The persistence
 * file goes to a directory of this broker's own, not the shipped `persistence_location`, so that brokers of
 * different tests never load each other's sessions.
 */
export async function startOwnMosquitto(extra: string[] = []): Promise<OwnBroker> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'solar-mosquitto-'));
  // Mosquitto started as root drops to the `mosquitto` user, which must be able to write the file.
  chmodSync(dir, 0o777);
  const shipped = readFileSync(SHIPPED_MOSQUITTO_CONF, 'utf8');
  const conf =
    shipped
      .replace(/^listener .*$/m, `listener ${port} 127.0.0.1`)
      .replace(/^persistence_location .*$/m, `persistence_location ${dir}/`) +
    '\n' +
    extra.join('\n') +
    '\n';
  const file = path.join(dir, 'mosquitto.conf');
  writeFileSync(file, conf);
  let child: ChildProcess;
  let stderr = '';
  let exited: Promise<void>;
  const start = async () => {
    child = spawn(MOSQUITTO_BIN, ['-c', file], { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir });
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const current = child;
    exited = new Promise<void>((resolve) => current.once('exit', () => resolve()));
    const end = Date.now() + 10_000;
    while (!(await accepts(port))) {
      if (child.exitCode !== null || Date.now() > end) {
        child.kill('SIGKILL');
        throw new Error(`mosquitto did not start on ${port}: ${stderr.slice(0, 500)}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const halt = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url: `mqtt://127.0.0.1:${port}`,
    dir,
    async restart() {
      await halt();
      await start();
    },
    async crash() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    start,
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
