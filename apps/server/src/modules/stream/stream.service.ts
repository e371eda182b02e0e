import type { AppContext } from '../../context';
import { notFound } from '../../lib/http-errors';
import { scopeOf, type ScopeSubject } from '../../lib/scope';
import { readLatest } from '../../telemetry-store/queries';
import { StreamHub } from './stream.hub';
import { plantReachable, sessionStates, signalsInScope } from './stream.repository';

/**
 * The app's one StreamHub, built by buildApp and handed around as `ctx.stream`. Other modules publish
 * through it, e.g. the alarms module: `ctx.stream.publishToPlant(plantId, 'alarm', alarm, { page: 'alarm'
 * })`.
 */
export function createStreamHub(
  deps: Pick<AppContext, 'db' | 'dialect' | 'now' | 'sessionEvents'> & {
    /** Stored telemetry, of this node and (several nodes) of the others. */
    telemetry: Pick<AppContext['telemetry'], 'onStored'>;
  },
): StreamHub {
  return new StreamHub(
    deps.telemetry,
    {
      plantReachable: (scope, plantId) => plantReachable(deps.db, scope, plantId),
      sessionStates: (userIds) => sessionStates(deps.db, userIds),
      latestValues: (signalIds) => readLatest(deps.db, deps.dialect, signalIds),
    },
    () => deps.now(),
    undefined,
    // A change to a user's or a role's reach ends the affected connections at once (docs/security.md,
    // hole 2).
    deps.sessionEvents,
  );
}

/** Rules of live push: a connection is its owner's alone; only signals in the owner's scope are watched. */
export class StreamService {
  constructor(
    private readonly ctx: AppContext,
    readonly hub: StreamHub,
  ) {}

  /**
   * Replaces what a connection watches. An unknown connection, someone else's, or any signal outside
   * the caller's scope answers 404 and changes nothing.
   */
  async subscribe(
    subject: ScopeSubject & { userId: number },
    connectionId: string,
    signalIds: readonly number[],
  ): Promise<number[]> {
    if (!this.hub.ownerOf(connectionId, subject.userId)) throw notFound();
    const reachable = await signalsInScope(this.ctx.db, scopeOf(subject), signalIds);
    if (reachable.length !== signalIds.length) throw notFound();
    // The connection may have closed while the scope was checked.
    if (!this.hub.ownerOf(connectionId, subject.userId)) throw notFound();
    this.hub.setSubscriptions(connectionId, signalIds);
    return [...signalIds];
  }
}
