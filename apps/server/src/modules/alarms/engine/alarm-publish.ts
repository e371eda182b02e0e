import type { AlarmEvent } from '@solar/shared';
import type { Db } from '../../../db/database';
import { alarmsByIds } from '../alarms.repository';
import type { AlarmFeed } from './alarm-feed';
import type { WrittenEvent } from './alarm-store.repository';

/** Pushes one event to the live clients of a plant whose role has `page` (the stream hub's publishToPlant). */
export type PushToPlant = (
  plantId: number,
  event: 'alarm',
  data: AlarmEvent,
  options: { page: 'alarm' },
) => Promise<number>;

type Log = { error(obj: object, msg: string): void };

/** Tells everyone who listens that alarm events were committed. */
export interface AlarmPublisher {
  publish(written: readonly WrittenEvent[]): Promise<void>;
}

/**
 * After commit: each written event goes to the SSE clients allowed to see its plant (event `alarm`,
 * page `alarm`, data = the listen event) and to the in-process AlarmFeed. Errors are logged, never thrown:
 * the alarm is stored and `alarms/listen` still answers it.
 */
export function createAlarmPublisher(deps: {
  db: Db;
  feed: AlarmFeed;
  pushToPlant: PushToPlant;
  /** Where publish errors are logged. */
  log: Log;
}): AlarmPublisher {
  return {
    async publish(written) {
      if (!written.length) return;
      try {
        const alarms = await alarmsByIds(
          deps.db,
          written.map((w) => w.alarmId),
        );
        const sends: Promise<number>[] = [];
        for (const w of written) {
          const alarm = alarms.get(w.alarmId);
          if (!alarm) continue;
          const event: AlarmEvent = { id: w.eventId, kind: w.kind, at: new Date(w.at).toISOString(), alarm };
          sends.push(deps.pushToPlant(alarm.plant_id, 'alarm', event, { page: 'alarm' }));
          deps.feed.publish({ kind: w.kind, alarm });
        }
        await Promise.all(sends);
      } catch (error) {
        deps.log.error({ err: error }, 'alarm publish failed');
      }
    },
  };
}

/** A publisher that tells no one: for alarms written from history, which are not news. */
export const SILENT_PUBLISHER: AlarmPublisher = {
  publish: () => Promise.resolve(),
};
