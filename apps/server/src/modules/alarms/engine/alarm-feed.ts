import type { AlarmRecord } from '@solar/shared';

export type { AlarmRecord };

/** One change of an alarm, as the engine and the alarm routes publish it after the change committed. */
export interface AlarmChange {
  kind: 'raised' | 'cleared' | 'approved' | 'rejected';
  alarm: AlarmRecord;
}

export type AlarmChangeListener = (change: AlarmChange) => void;

/**
 * In-process feed of alarm changes (the notifications digest listens). Listeners are called
 * synchronously after commit; an error thrown by one listener is reported and does not stop the others.
 */
export interface AlarmFeed {
  /** Subscribes; returns the unsubscribe function. */
  onAlarmChange(listener: AlarmChangeListener): () => void;
  /** Publishes a committed change to every listener. */
  publish(change: AlarmChange): void;
}

/** A new, empty feed; buildApp makes the app's one and hands it around on AppContext. */
export function createAlarmFeed(onError: (error: unknown) => void = () => undefined): AlarmFeed {
  const listeners = new Set<AlarmChangeListener>();
  return {
    onAlarmChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    publish(change) {
      for (const listener of [...listeners]) {
        try {
          listener(change);
        } catch (error) {
          onError(error);
        }
      }
    },
  };
}
