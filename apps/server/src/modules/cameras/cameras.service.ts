import { E } from '@solar/shared';
import type { AppContext } from '../../context';
import { found, type Actor } from '../../lib/actor';
import { HttpError, conflict } from '../../lib/http-errors';
import { scopeOf } from '../../lib/scope';
import { CameraError, fetchSnapshot, openStream, type CameraStream, type Snapshot } from './camera-client';
import * as repo from './cameras.repository';

/** The stored address as an http(s) URL, or 409 when the camera has none to proxy (e.g. only rtsp://). */
function proxiable(stored: string | null): URL {
  const url = URL.canParse(stored ?? '') ? new URL(stored ?? '') : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw conflict(E.cameraNotConfigured);
  return url;
}

/** 502 with the translated reason; the camera's address and the low-level message stay in the log. */
function badGateway(error: unknown): never {
  if (error instanceof CameraError) {
    throw new HttpError(502, error.kind === 'invalid' ? E.cameraInvalidAnswer : E.cameraUnreachable);
  }
  throw error;
}

/**
 * The camera proxy: the browser asks for a camera by id, the server fetches the one URL stored on that
 * device, so the camera's address and credentials never reach the browser.
 */
export class CamerasService {
  constructor(private readonly ctx: Pick<AppContext, 'db'>) {}

  async snapshot(actor: Actor, id: number): Promise<Snapshot> {
    const camera = found(await repo.findCamera(this.ctx.db, scopeOf(actor), id));
    const url = proxiable(camera.snapshot_url);
    return fetchSnapshot(url).catch(badGateway);
  }

  async stream(actor: Actor, id: number): Promise<CameraStream> {
    const camera = found(await repo.findCamera(this.ctx.db, scopeOf(actor), id));
    const url = proxiable(camera.stream_url);
    return openStream(url).catch(badGateway);
  }
}
