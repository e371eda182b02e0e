import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { CameraUpstream, StreamHandlers } from './camera-client';
import { encodeFrame, type Frame } from './mjpeg';

/**
 * Frames passed on per second at most (docs/security.md, "Device networks"): a site camera's picture
 * changes slowly, and parsing, checking and re-encoding a 25 fps stream cost the server a core.
 */
export const MJPEG_MAX_FPS = 5;

/** One viewer's end of a shared stream. */
export interface CameraViewer {
  /** multipart/x-mixed-replace with the stream's own boundary. */
  contentType: string;
  /** The frames from now on; ends when the camera's stream ends. */
  body: PassThrough;
  /** The viewer went away; the last one to leave closes the camera connection. */
  close(): void;
}

interface Entry {
  boundary: string;
  viewers: Set<PassThrough>;
  opening: Promise<CameraUpstream>;
  upstream: CameraUpstream | undefined;
  lastFrameMs: number;
  ended: boolean;
}

/** Opens the camera's stream; the hub gives the handlers. */
export type OpenUpstream = (handlers: StreamHandlers) => Promise<CameraUpstream>;

/**
 * The camera streams, one upstream connection per camera and address however many watch it: frames are
 * parsed and checked once, encoded once, written to every viewer, and dropped for a viewer that has not
 * taken the previous ones yet (a slow viewer sees fewer frames rather than holding memory). The connection
 * closes when the last viewer leaves. Built once in buildApp (AppContext.cameraStreams).
 */
export class CameraStreamHub {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxFps = MJPEG_MAX_FPS) {}

  /** Open upstream connections (for tests and figures). */
  get upstreams(): number {
    return this.entries.size;
  }

  /**
   * A viewer of camera `key` (its id and stream address), opening the camera with `open` when nobody
   * watches it yet. Viewers that arrive while it opens share the opening and its failure.
   */
  async watch(key: string, open: OpenUpstream): Promise<CameraViewer> {
    let entry = this.entries.get(key);
    if (!entry) entry = this.start(key, open);
    const current = entry;
    await current.opening;
    const body = new PassThrough();
    if (current.ended) {
      body.end();
    } else {
      current.viewers.add(body);
    }
    let left = false;
    return {
      contentType: `multipart/x-mixed-replace; boundary=${current.boundary}`,
      body,
      close: () => {
        if (left) return;
        left = true;
        current.viewers.delete(body);
        if (!body.writableEnded) body.end();
        if (current.viewers.size === 0) this.stop(key, current);
      },
    };
  }

  /** Ends every stream (the server is closing). */
  shutdown(): void {
    for (const [key, entry] of this.entries) this.stop(key, entry);
  }

  private start(key: string, open: OpenUpstream): Entry {
    const entry: Entry = {
      boundary: `frame-${randomBytes(8).toString('hex')}`,
      viewers: new Set(),
      opening: Promise.resolve(undefined as unknown as CameraUpstream),
      upstream: undefined,
      lastFrameMs: -Infinity,
      ended: false,
    };
    this.entries.set(key, entry);
    entry.opening = open({
      frame: (frame) => this.fanOut(entry, frame),
      end: () => this.ended(key, entry),
    }).then(
      (upstream) => {
        entry.upstream = upstream;
        // Every viewer that waited left meanwhile (or the stream ended at once).
        if (entry.ended) upstream.close();
        return upstream;
      },
      (error: unknown) => {
        entry.ended = true;
        if (this.entries.get(key) === entry) this.entries.delete(key);
        throw error;
      },
    );
    return entry;
  }

  private fanOut(entry: Entry, frame: Frame): void {
    const nowMs = performance.now();
    if (nowMs - entry.lastFrameMs < 1000 / this.maxFps) return;
    entry.lastFrameMs = nowMs;
    const bytes = encodeFrame(entry.boundary, frame.type, frame.data);
    for (const viewer of entry.viewers) {
      if (!viewer.writableNeedDrain) viewer.write(bytes);
    }
  }

  private ended(key: string, entry: Entry): void {
    entry.ended = true;
    if (this.entries.get(key) === entry) this.entries.delete(key);
    for (const viewer of entry.viewers) viewer.end();
    entry.viewers.clear();
  }

  private stop(key: string, entry: Entry): void {
    if (this.entries.get(key) === entry) this.entries.delete(key);
    entry.ended = true;
    entry.upstream?.close();
    for (const viewer of entry.viewers) viewer.end();
    entry.viewers.clear();
  }
}
