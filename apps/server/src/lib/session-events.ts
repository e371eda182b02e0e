/**
 * What ends or changes the reach of existing sessions: a user's role, company, units, active flag or
 * password changed, or a role's permissions changed. Emitted after the change is committed.
 */
export type SessionChange = { kind: 'user'; userId: number } | { kind: 'role'; roleId: number };

/**
 * The bus such changes travel on (`ctx.sessionEvents`). The users, roles and auth modules emit; the live
 * stream listens and ends the affected connections at once. In process today: a multi-node fan-out
 * (PostgreSQL LISTEN/NOTIFY or Redis pub/sub) plugs in as one more listener that publishes what is
 * emitted here, and re-emits here what other nodes publish; neither side has to change.
 */
export interface SessionEvents {
  emit(change: SessionChange): void;
  /** Adds a listener; answers the function that removes it. */
  on(listener: (change: SessionChange) => void): () => void;
}

export function createSessionEvents(log: (error: unknown) => void = () => undefined): SessionEvents {
  const listeners = new Set<(change: SessionChange) => void>();
  return {
    emit(change) {
      for (const listener of listeners) {
        // One failing listener must not keep the change from the others.
        try {
          listener(change);
        } catch (error) {
          log(error);
        }
      }
    },
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
