/** The toast functions the API client needs; Ant Design's `App.useApp().message` fits. */
export interface Notifier {
  success: (content: string) => unknown;
  error: (content: string) => unknown;
  info: (content: string) => unknown;
}

let notifier: Notifier | null = null;
/** Toasts asked for before the notifier registered (a 401 answering the session restore); shown then. */
let pending: [keyof Notifier, string][] = [];
const pendingListeners = new Set<() => void>();

/** True while toasts wait for a notifier: the providers then load it, even with no session left. */
export const hasQueuedToasts = (): boolean => pending.length > 0;

/** Calls `listener` when a toast is queued or the queue is shown (for useSyncExternalStore). */
export function onToastQueued(listener: () => void): () => void {
  pendingListeners.add(listener);
  return () => pendingListeners.delete(listener);
}

/** Registered once by the providers with the message API of the Ant Design `App`. */
export function registerNotifier(next: Notifier | null): void {
  notifier = next;
  if (!next) return;
  const queued = pending;
  pending = [];
  for (const [kind, content] of queued) next[kind](content);
  for (const listener of pendingListeners) listener();
}

const send =
  (kind: keyof Notifier) =>
  (content: string): unknown => {
    if (notifier) return notifier[kind](content);
    // Keep only the last few: the notifier loads with the first session, so this stays short.
    pending = [...pending.slice(-4), [kind, content]];
    for (const listener of pendingListeners) listener();
    return undefined;
  };

/** Toasts that work from outside React; queued until a notifier is registered. */
export const notify: Notifier = {
  success: send('success'),
  error: send('error'),
  info: send('info'),
};
