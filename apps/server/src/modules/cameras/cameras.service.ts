import { setTimeout as sleep } from 'node:timers/promises';
import { E } from '@solar/shared';
import type { AppContext } from '../../context';
import { found, type Actor } from '../../lib/actor';
import { portOfUrl } from '../../lib/device-networks';
import { HttpError, conflict } from '../../lib/http-errors';
import { scopeOf } from '../../lib/scope';
import { fetchSnapshot, openStream, type CameraConnection, type Snapshot } from './camera-client';
import type { CameraViewer } from './camera-hub';
import * as repo from './cameras.repository';

/** The stored address as an http(s) URL, or 409 when the camera has none to proxy (e.g. only rtsp://). */
function proxiable(stored: string | null): URL {
  const url = URL.canParse(stored ?? '') ? new URL(stored ?? '') : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw conflict(E.cameraNotConfigured);
  return url;
}

/**
 * A camera that gave no image, whatever the reason: refused address, closed or silent port, an error
 * status, a web page instead of an image. The client always gets the same 502 at the same moment; the
 * reason (`cause`) is for the server log only (the routes write it).
 */
export class CameraFailure extends HttpError {
  constructor(readonly reason: unknown) {
    super(502, E.cameraUnreachable);
  }
}

/**
 * The camera proxy: the browser asks for a camera by id, the server fetches the one URL stored on that
 * device, so the camera's address and credentials never reach the browser. Only addresses inside the
 * device networks are fetched (lib/device-networks.ts), and every failure is answered alike.
 */
export class CamerasService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'config' | 'deviceNetworks' | 'cameraStreams'>) {}

  async snapshot(actor: Actor, id: number): Promise<Snapshot> {
    const camera = found(await repo.findCamera(this.ctx.db, scopeOf(actor), id));
    const url = proxiable(camera.snapshot_url);
    return this.uniformly(async () => fetchSnapshot(url, await this.connection(url)));
  }

  /** A viewer of the camera's stream, sharing one camera connection with every other viewer of it. */
  async stream(actor: Actor, id: number): Promise<CameraViewer> {
    const camera = found(await repo.findCamera(this.ctx.db, scopeOf(actor), id));
    const url = proxiable(camera.stream_url);
    return this.uniformly(
      async () => {
        const connection = await this.connection(url);
        return this.ctx.cameraStreams.watch(`${camera.id} ${url.href}`, (handlers) =>
          openStream(url, connection, handlers),
        );
      },
      (late) => late.close(),
    );
  }

  /** The checked address (after DNS) and the answer deadline; refused addresses throw. */
  private async connection(url: URL): Promise<CameraConnection> {
    const target = await this.ctx.deviceNetworks.target(url.hostname, portOfUrl(url));
    return { target, firstByteTimeoutMs: this.ctx.config.deviceNetworks.cameraDeadlineMs };
  }

  /**
   * Runs `work` against one deadline timer started first: success before it answers at once; a failure
   * waits for it; work still running when it fires is given up (and `discard`ed should it succeed later).
   * Closed, silent and talking ports therefore all fail on the same timer (docs/security.md).
   */
  private async uniformly<T>(
    work: () => Promise<T>,
    discard: (late: T) => void = () => undefined,
  ): Promise<T> {
    const deadline = new AbortController();
    const timer = sleep(this.ctx.config.deviceNetworks.cameraDeadlineMs, 'deadline' as const, {
      signal: deadline.signal,
    }).catch(() => 'cancelled' as const);
    const outcome = work().then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    const first = await Promise.race([outcome, timer]);
    if (first === 'deadline' || first === 'cancelled') {
      void outcome.then((late) => late.ok && discard(late.value));
      throw new CameraFailure(new Error('no answer by the deadline'));
    }
    if (first.ok) {
      deadline.abort();
      return first.value;
    }
    await timer;
    throw new CameraFailure(first.error);
  }
}
