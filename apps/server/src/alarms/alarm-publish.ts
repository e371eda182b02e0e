import type { AlarmEvent } from '@solar/shared';
import type { AppContext } from '../context';
import { alarmFeedOf } from './alarm-feed';
import { alarmsByIds, type WrittenEvent } from './alarm-store.repository';

/**
 * After commit: each written event goes to the SSE clients allowed to see its plant (event `alarm`,
 * page `alarm`, data = the listen event) and to the in-process AlarmFeed. Errors are logged, never thrown:
 * the alarm is stored and `alarms/listen` still answers it.
 */
export async function publishAlarmEvents(
  ctx: Pick<AppContext, 'db' | 'stream'>,
  written: readonly WrittenEvent[],
  log: { error(obj: object, msg: string): void },
): Promise<void> {
  if (!written.length) return;
  try {
    const alarms = await alarmsByIds(
      ctx.db,
      written.map((w) => w.alarmId),
    );
    const hub = ctx.stream;
    const feed = alarmFeedOf(ctx);
    const sends: Promise<number>[] = [];
    for (const w of written) {
      const alarm = alarms.get(w.alarmId);
      if (!alarm) continue;
      const event: AlarmEvent = { id: w.eventId, kind: w.kind, at: new Date(w.at).toISOString(), alarm };
      sends.push(hub.publishToPlant(alarm.plant_id, 'alarm', event, { page: 'alarm' }));
      feed.publish({ kind: w.kind, alarm });
    }
    await Promise.all(sends);
  } catch (error) {
    log.error({ err: error }, 'alarm publish failed');
  }
}
