import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { STREAM_PATH, XSRF_COOKIE, XSRF_HEADER, type StreamLatestEvent } from '@solar/shared';
import { API_BASE } from './api-client';
import { readCookie } from './cookies';
import { getToken, useSession } from './session-store';

/** The newest live value of a signal. */
export interface LiveValue {
  /** Epoch milliseconds. */
  ts: number;
  value: number;
}

export type LiveStatus = 'idle' | 'connecting' | 'open' | 'retrying';

/** Reconnect delays: doubled per failure from 1 s up to 30 s, with jitter so tabs do not reconnect together. */
const BACKOFF_MIN_MS = 1_000;
const BACKOFF_MAX_MS = 30_000;
/** The connection stays this long after the last watcher leaves, so a page change does not reconnect. */
const IDLE_CLOSE_MS = 10_000;

/** Splits an SSE byte stream into events (`event:` and `data:` lines; comments are heartbeats). */
export class SseParser {
  private buffer = '';
  constructor(private readonly onEvent: (event: string, data: string) => void) {}

  push(text: string): void {
    this.buffer += text.replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (!line || line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length) this.onEvent(event, data.join('\n'));
    }
  }
}

/**
 * The tab's one live push connection (GET /api/stream read with fetch so the bearer token stays in a
 * header). Components register the signals they show; the union is the connection's subscription, sent
 * again after every reconnect. Other modules may listen to named events (`alarm`).
 */
class LiveStream {
  private readonly counts = new Map<number, number>();
  private readonly values = new Map<number, LiveValue>();
  private readonly listeners = new Set<() => void>();
  private readonly eventListeners = new Map<string, Set<(data: unknown) => void>>();
  private abort: AbortController | null = null;
  private connectionId: string | null = null;
  private failures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private syncTimer: ReturnType<typeof setTimeout> | null = null;
  private sentKey = '';
  private version = 0;
  status: LiveStatus = 'idle';

  constructor() {
    useSession.subscribe((state) => {
      if (state.status === 'anonymous') this.stop(true);
    });
  }

  /** Adds watchers of the signals; answers the function that removes them again. */
  watch(signalIds: readonly number[]): () => void {
    for (const id of signalIds) this.counts.set(id, (this.counts.get(id) ?? 0) + 1);
    this.changed();
    return () => {
      for (const id of signalIds) {
        const n = (this.counts.get(id) ?? 0) - 1;
        if (n > 0) this.counts.set(id, n);
        else this.counts.delete(id);
      }
      this.changed();
    };
  }

  /** Listens to a named event of the stream (e.g. `alarm`), keeping the connection open meanwhile. */
  on(event: string, listener: (data: unknown) => void): () => void {
    let set = this.eventListeners.get(event);
    if (!set) this.eventListeners.set(event, (set = new Set()));
    set.add(listener);
    this.changed();
    return () => {
      set.delete(listener);
      this.changed();
    };
  }

  get(signalId: number): LiveValue | undefined {
    return this.values.get(signalId);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  private needed(): boolean {
    return this.counts.size > 0 || [...this.eventListeners.values()].some((s) => s.size > 0);
  }

  private changed(): void {
    if (this.needed()) {
      if (this.idleTimer) clearTimeout(this.idleTimer);
      this.idleTimer = null;
      if (this.status === 'idle') this.connect();
      else this.scheduleSync();
    } else if (!this.idleTimer && this.status !== 'idle') {
      this.idleTimer = setTimeout(() => {
        this.idleTimer = null;
        if (!this.needed()) this.stop(false);
      }, IDLE_CLOSE_MS);
    }
  }

  private emit(): void {
    this.version++;
    for (const l of this.listeners) l();
  }

  private setStatus(status: LiveStatus): void {
    this.status = status;
    this.emit();
  }

  /** Ends the connection; on logout also forgets the values. */
  stop(forget: boolean): void {
    this.abort?.abort();
    this.abort = null;
    this.connectionId = null;
    this.sentKey = '';
    for (const timer of [this.retryTimer, this.idleTimer, this.syncTimer]) if (timer) clearTimeout(timer);
    this.retryTimer = this.idleTimer = this.syncTimer = null;
    if (forget) this.values.clear();
    if (this.status !== 'idle') this.setStatus('idle');
  }

  private connect(): void {
    const token = getToken();
    if (!token || typeof fetch === 'undefined') return;
    const abort = new AbortController();
    this.abort = abort;
    this.setStatus('connecting');
    void this.run(token, abort).then((retry) => {
      if (this.abort !== abort) return;
      this.abort = null;
      this.connectionId = null;
      this.sentKey = '';
      if (!retry || !this.needed()) return this.setStatus('idle');
      this.setStatus('retrying');
      const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** this.failures++);
      this.retryTimer = setTimeout(
        () => {
          this.retryTimer = null;
          if (this.needed() && this.status === 'retrying') this.connect();
        },
        delay * (0.75 + Math.random() * 0.5),
      );
    });
  }

  /** Reads one connection to its end; answers whether to reconnect. */
  private async run(token: string, abort: AbortController): Promise<boolean> {
    let response: Response;
    try {
      // Every console request carries the anti-forgery header (spec §9), this one too.
      const headers: Record<string, string> = {
        Authorization: `Bearer ${token}`,
        Accept: 'text/event-stream',
      };
      const xsrf = readCookie(document.cookie, XSRF_COOKIE);
      if (xsrf) headers[XSRF_HEADER] = xsrf;
      response = await fetch(`${API_BASE}/${STREAM_PATH}`, {
        headers,
        credentials: 'include',
        cache: 'no-store',
        signal: abort.signal,
      });
    } catch {
      return !abort.signal.aborted;
    }
    // A 401 ends the session through the app's other calls; 403 will not get better by retrying.
    if (response.status === 401 || response.status === 403) return false;
    if (!response.ok || !response.body) return true;
    const parser = new SseParser((event, data) => this.onEvent(event, data));
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.push(decoder.decode(value, { stream: true }));
      }
    } catch {
      // The connection broke or was aborted.
    }
    return !abort.signal.aborted;
  }

  private onEvent(event: string, data: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    if (event === 'hello') {
      this.connectionId = (parsed as { connection_id: string }).connection_id;
      this.failures = 0;
      this.setStatus('open');
      this.scheduleSync(0);
    } else if (event === 'latest') {
      let any = false;
      for (const [signalId, ts, value] of parsed as StreamLatestEvent) {
        const known = this.values.get(signalId);
        if (known && known.ts > ts) continue;
        this.values.set(signalId, { ts, value });
        any = true;
      }
      if (any) this.emit();
    }
    for (const listener of this.eventListeners.get(event) ?? []) listener(parsed);
  }

  /** Sends the union of watched signals once things settle (several components mount together). */
  private scheduleSync(delay = 30): void {
    if (this.syncTimer) clearTimeout(this.syncTimer);
    this.syncTimer = setTimeout(() => {
      this.syncTimer = null;
      void this.sync();
    }, delay);
  }

  private async sync(): Promise<void> {
    const id = this.connectionId;
    const token = getToken();
    if (!id || !token) return;
    const ids = [...this.counts.keys()].sort((a, b) => a - b);
    const key = `${id}:${ids.join(',')}`;
    if (key === this.sentKey) return;
    this.sentKey = key;
    const headers: Record<string, string> = {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json',
    };
    const xsrf = readCookie(document.cookie, XSRF_COOKIE);
    if (xsrf) headers[XSRF_HEADER] = xsrf;
    try {
      // A direct call, not the API client: a subscription change is not a user action worth a toast.
      const res = await fetch(`${API_BASE}/${STREAM_PATH}/${id}/subscriptions`, {
        method: 'POST',
        headers,
        credentials: 'include',
        body: JSON.stringify({ signal_ids: ids }),
      });
      if (!res.ok) throw new Error(String(res.status));
    } catch {
      // Unknown connection (it closed meanwhile) or a signal that went away: send again on the next change.
      if (this.sentKey === key) this.sentKey = '';
    }
  }
}

/** The tab's live connection. */
export const liveStream = new LiveStream();

/**
 * The newest live values of the signals, by signal id, kept up to date over the tab's one stream
 * connection. Several components watching signals share that connection and its subscription.
 */
export function useLiveValues(signalIds: readonly number[]): Map<number, LiveValue> {
  const key = [...new Set(signalIds)].sort((a, b) => a - b).join(',');
  useEffect(() => {
    if (!key) return undefined;
    return liveStream.watch(key.split(',').map(Number));
  }, [key]);
  const version = useSyncExternalStore(liveStream.subscribe, liveStream.getVersion);
  return useMemo(() => {
    const map = new Map<number, LiveValue>();
    if (!key) return map;
    for (const id of key.split(',').map(Number)) {
      const value = liveStream.get(id);
      if (value) map.set(id, value);
    }
    return map;
    // `version` changes whenever a value arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, version]);
}

/** The state of the tab's live connection, for a small indicator. */
export function useLiveStatus(): LiveStatus {
  useSyncExternalStore(liveStream.subscribe, liveStream.getVersion);
  return liveStream.status;
}
