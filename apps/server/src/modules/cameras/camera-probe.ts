import type { AppContext } from '../../context';
import { portOfUrl } from '../../lib/device-networks';
import { fetchSnapshot } from './camera-client';
import { listProbeTargets, recordProbe, type ProbeTarget } from './cameras.repository';

/**
 * How often each camera is asked for an image. A camera sends no telemetry; this answer is its link, and
 * the status rule calls it offline after three of these without an image (modules/kpi/engine/status.ts).
 */
export const CAMERA_PROBE_INTERVAL_MS = 60_000;
/**
 * Cameras asked at once. One small GET each, so the server carries many; what bounds a pass is the silent
 * cameras, each holding a slot for the whole deadline (5 s): 16 slots probe 192 silent cameras a minute,
 * and a pass must end well within the status window (three intervals) for the live ones to stay online.
 */
export const CAMERA_PROBE_CONCURRENCY = 16;

type Log = {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
};

export interface CameraProbeOptions {
  /** Whether the server runs it (default true; the test apps turn it off unless a test asks for it). */
  enabled?: boolean;
  /** Between the end of one pass and the start of the next (default CAMERA_PROBE_INTERVAL_MS). */
  intervalMs?: number;
  /** Cameras asked at once (default CAMERA_PROBE_CONCURRENCY). */
  concurrency?: number;
}

/** One camera's answer to one pass: an image, or why not (for the log; the table keeps it too). */
export interface ProbeResult {
  deviceId: number;
  image: boolean;
  error: string | null;
}

/** The stored address as an http(s) URL, or null when it is none (the proxy answers those 409 too). */
function httpUrlOf(stored: string): URL | null {
  const url = URL.canParse(stored) ? new URL(stored) : null;
  return url && (url.protocol === 'http:' || url.protocol === 'https:') ? url : null;
}

/** Why a probe got no image, short: the reason goes to the table and the log, never to a client. */
const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Asks every active camera with a snapshot address for an image, on the node that holds the jobs lease
 * (app.ts starts it with runWhileLeader), and records when each last answered with one (`camera_probes`).
 * Each fetch goes through the device networks' check like the proxy's (lib/device-networks.ts): a refused
 * address is never fetched and counts as no image. Each fetch ends at the camera deadline; stop() ends the
 * fetches under way and waits for the pass.
 */
export class CameraProbe {
  private readonly intervalMs: number;
  private readonly concurrency: number;
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<ProbeResult[]> | undefined;
  private running = false;
  private stopping = new AbortController();

  constructor(
    private readonly ctx: Pick<AppContext, 'db' | 'now' | 'config' | 'deviceNetworks'>,
    private readonly log: Log,
    options: CameraProbeOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? CAMERA_PROBE_INTERVAL_MS;
    this.concurrency = Math.max(1, options.concurrency ?? CAMERA_PROBE_CONCURRENCY);
  }

  /** A first pass at once, then one every interval after the previous ended, until stop(). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopping = new AbortController();
    const loop = () => {
      void this.runOnce()
        .catch((error: unknown) => this.log.error({ err: error }, 'camera probe: pass failed'))
        .finally(() => {
          if (this.running) this.timer = setTimeout(loop, this.intervalMs).unref();
        });
    };
    loop();
  }

  /** Stops the timer, ends the fetches under way and waits for the pass to finish. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    this.stopping.abort();
    await this.pass?.catch(() => undefined);
  }

  /** One pass over every camera; a pass already under way is joined rather than doubled. */
  runOnce(): Promise<ProbeResult[]> {
    this.pass ??= this.probeAll().finally(() => {
      this.pass = undefined;
    });
    return this.pass;
  }

  private async probeAll(): Promise<ProbeResult[]> {
    // Only what the proxy could fetch: a camera with an rtsp:// snapshot address stays never probed (unknown).
    const queue = (await listProbeTargets(this.ctx.db)).filter((c) => httpUrlOf(c.snapshot_url) !== null);
    const results: ProbeResult[] = [];
    const worker = async () => {
      for (let camera = queue.shift(); camera; camera = queue.shift()) {
        if (this.stopping.signal.aborted) break;
        results.push(await this.probe(camera));
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, queue.length) }, worker));
    return results;
  }

  /** Fetches one camera's snapshot on its checked address and records the outcome. */
  private async probe(camera: ProbeTarget): Promise<ProbeResult> {
    let error: string | null = null;
    try {
      const url = httpUrlOf(camera.snapshot_url)!;
      const deadlineMs = this.ctx.config.deviceNetworks.cameraDeadlineMs;
      const signal = AbortSignal.any([this.stopping.signal, AbortSignal.timeout(deadlineMs)]);
      const target = await this.ctx.deviceNetworks.target(url.hostname, portOfUrl(url));
      await fetchSnapshot(url, { target, firstByteTimeoutMs: deadlineMs, signal });
    } catch (failure) {
      error = reasonOf(failure);
    }
    // Ended by stop(): the camera did not fail, the server is going away.
    if (this.stopping.signal.aborted) return { deviceId: camera.id, image: false, error };
    try {
      await recordProbe(this.ctx.db, { device_id: camera.id, probed_at: this.ctx.now(), last_error: error });
    } catch (failure) {
      // Deleted meanwhile (its row cascades away), or the database is closing: nothing to keep.
      this.log.warn({ err: failure, cameraId: camera.id }, 'camera probe: outcome not recorded');
    }
    return { deviceId: camera.id, image: error === null, error };
  }
}
