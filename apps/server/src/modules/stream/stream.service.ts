import type { AppContext } from '../../context';
import { notFound } from '../../lib/http-errors';
import { scopeOf, type ScopeSubject } from '../../lib/scope';
import { StreamHub } from './stream.hub';
import { plantReachable, sessionStates, signalsInScope } from './stream.repository';

const hubs = new WeakMap<AppContext, StreamHub>();

/**
 * The app's one StreamHub, created on first use. Other modules publish through it, e.g. the alarms
 * module: `streamHubOf(ctx).publishToPlant(plantId, 'alarm', alarm, { page: 'alarm' })`.
 */
export function streamHubOf(ctx: AppContext): StreamHub {
  let hub = hubs.get(ctx);
  if (!hub) {
    hub = new StreamHub(
      ctx.telemetry,
      {
        plantReachable: (scope, plantId) => plantReachable(ctx.db, scope, plantId),
        sessionStates: (userIds) => sessionStates(ctx.db, userIds),
      },
      () => ctx.now(),
    );
    hubs.set(ctx, hub);
  }
  return hub;
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
