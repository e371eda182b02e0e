import type { LookupFunction } from 'node:net';
import http from 'node:http';
import https from 'node:https';
import type { CheckedTarget } from '../../lib/device-networks';
import { imageTypeOf, MultipartFrameReader, type Frame, type ImageType } from './mjpeg';

/** Whole-snapshot deadline, so a camera trickling bytes cannot hold a request open. */
export const SNAPSHOT_DEADLINE_MS = 20_000;
/** Largest snapshot passed on, and the largest single frame of a stream. */
export const SNAPSHOT_MAX_BYTES = 5 * 1024 * 1024;
export const FRAME_MAX_BYTES = 5 * 1024 * 1024;
/** A stream that sends nothing for this long is ended. */
export const STREAM_IDLE_TIMEOUT_MS = 15_000;

/** Why a camera gave no image: it could not be reached, or what it answered is not passed on. */
export class CameraError extends Error {
  constructor(
    readonly kind: 'unreachable' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

/** A lookup that answers the address the device networks checked, so that the name is not looked up again. */
function pinnedLookup(target: CheckedTarget): LookupFunction {
  return (_host, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

/** How the camera is reached: the checked address, and how long it may take to answer. */
export interface CameraConnection {
  target: CheckedTarget;
  firstByteTimeoutMs: number;
  /** Ends the request wherever it is (the camera probe's timeout, or its stop at shutdown). */
  signal?: AbortSignal;
}

/**
 * One GET of exactly `url` (the address stored on the device; its user and password, if any, become Basic
 * authentication) on the checked address. Redirects are never followed (node:http does not), and no header
 * of the browser's request is passed on. Answers once the headers are in, within firstByteTimeoutMs.
 */
function get(
  url: URL,
  accept: string,
  connection: CameraConnection,
): Promise<{ request: http.ClientRequest; response: http.IncomingMessage }> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.reject(new CameraError('invalid', `scheme ${url.protocol} is not proxied`));
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    // A fresh connection per call (agent: false): destroying the answer closes the camera's socket too.
    const request = client.request(
      url,
      {
        method: 'GET',
        agent: false,
        lookup: pinnedLookup(connection.target),
        headers: { accept, 'user-agent': 'solar-console-camera-proxy' },
        ...(connection.signal ? { signal: connection.signal } : {}),
      },
      (response) => {
        clearTimeout(timer);
        resolve({ request, response });
      },
    );
    const timer = setTimeout(() => {
      request.destroy(new CameraError('unreachable', 'no answer in time'));
    }, connection.firstByteTimeoutMs);
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error instanceof CameraError ? error : new CameraError('unreachable', error.message));
    });
    request.end();
  });
}

/** The media type of a Content-Type header, lower case and without parameters. */
function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Refuses redirects (invalid) and error statuses (unreachable); the body is discarded then. */
function checkStatus(response: http.IncomingMessage): void {
  const status = response.statusCode ?? 0;
  if (status >= 200 && status < 300) return;
  response.destroy();
  if (status >= 300 && status < 400) throw new CameraError('invalid', `redirect ${status} not followed`);
  throw new CameraError('unreachable', `camera answered ${status}`);
}

export interface Snapshot {
  contentType: ImageType;
  body: Buffer;
}

/**
 * A still image from the camera: JPEG or PNG only, by its Content-Type and by its first bytes, at most
 * SNAPSHOT_MAX_BYTES. An SVG or HTML answer would be script on our origin, so it never passes.
 */
export async function fetchSnapshot(url: URL, connection: CameraConnection): Promise<Snapshot> {
  const { request, response } = await get(url, 'image/jpeg, image/png', connection);
  checkStatus(response);
  const declared = mediaTypeOf(response.headers['content-type']);
  if (declared !== 'image/jpeg' && declared !== 'image/png' && declared !== 'image/jpg') {
    response.destroy();
    throw new CameraError('invalid', `content type ${declared || '(none)'} refused`);
  }
  if (Number(response.headers['content-length'] ?? 0) > SNAPSHOT_MAX_BYTES) {
    response.destroy();
    throw new CameraError('invalid', 'snapshot too large');
  }
  const body = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const deadline = setTimeout(() => {
      request.destroy();
      reject(new CameraError('unreachable', 'snapshot not complete in time'));
    }, SNAPSHOT_DEADLINE_MS);
    response.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > SNAPSHOT_MAX_BYTES) {
        clearTimeout(deadline);
        request.destroy();
        reject(new CameraError('invalid', 'snapshot too large'));
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => {
      clearTimeout(deadline);
      resolve(Buffer.concat(chunks));
    });
    response.on('error', (error) => {
      clearTimeout(deadline);
      reject(new CameraError('unreachable', error.message));
    });
    // Cut before its end (an aborted request): settled already after 'end' or 'error', so a no-op then.
    response.on('close', () => {
      clearTimeout(deadline);
      reject(new CameraError('unreachable', 'snapshot cut off'));
    });
  });
  const actual = imageTypeOf(body);
  // The bytes must be the image the header claims (image/jpg is a common misspelling of image/jpeg).
  if (actual === null || actual !== (declared === 'image/png' ? 'image/png' : 'image/jpeg')) {
    throw new CameraError('invalid', 'body is not the declared image');
  }
  return { contentType: actual, body };
}

/** What an open camera stream tells its one reader (the hub). */
export interface StreamHandlers {
  /** A checked JPEG or PNG frame. */
  frame(frame: Frame): void;
  /** The stream is over: the camera ended it, went idle, sent a bad part, or close() was called. */
  end(): void;
}

/** An open camera stream; close() ends the camera connection. */
export interface CameraUpstream {
  close(): void;
}

/**
 * The camera's MJPEG stream (multipart/x-mixed-replace), parsed frame by frame rather than passed through:
 * every part is checked like a snapshot, so the camera cannot slip another type in later. Answers once the
 * camera's headers are in; frames then reach `handlers` until it ends (end() is called exactly once).
 */
export async function openStream(
  url: URL,
  connection: CameraConnection,
  handlers: StreamHandlers,
): Promise<CameraUpstream> {
  const { request, response } = await get(url, 'multipart/x-mixed-replace', connection);
  checkStatus(response);
  const header = response.headers['content-type'] ?? '';
  const boundary = /;\s*boundary="?([^";]+)"?/i.exec(header)?.[1]?.trim();
  if (mediaTypeOf(header) !== 'multipart/x-mixed-replace' || !boundary) {
    response.destroy();
    throw new CameraError('invalid', `content type ${mediaTypeOf(header) || '(none)'} refused`);
  }
  const reader = new MultipartFrameReader(boundary, FRAME_MAX_BYTES);
  let idle: NodeJS.Timeout | undefined;
  let ended = false;
  const close = () => {
    clearTimeout(idle);
    request.destroy();
    if (!ended) {
      ended = true;
      handlers.end();
    }
  };
  const rearm = () => {
    clearTimeout(idle);
    idle = setTimeout(close, STREAM_IDLE_TIMEOUT_MS);
  };
  rearm();
  response.on('data', (chunk: Buffer) => {
    if (ended) return;
    rearm();
    let frames: Frame[];
    try {
      frames = reader.push(chunk);
    } catch {
      // The frames so far were fine; the stream ends cleanly at the first part that is not.
      close();
      return;
    }
    for (const frame of frames) handlers.frame(frame);
  });
  // However the camera's answer stops (ended, reset, or cut by close()), the viewers' streams end with it.
  response.on('error', () => undefined);
  response.on('close', close);
  return { close };
}
