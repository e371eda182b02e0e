/**
 * The engine's writer: raises and clears are queued in memory as the engine decides them and written in
 * order by one chain of transactions, so the raise and clear of a condition are never reordered and the
 * event log grows in commit order. After each commit the events are published. The set of active
 * condition keys mirrors `alarms.active_key`: a repeat raise or a clear of nothing queues nothing.
 */
import type { Db } from '../../../db/database';
import type { AlarmPublisher } from './alarm-publish';
import {
  activeConditions,
  clearAlarms,
  raiseAlarms,
  type RaiseRequest,
  type WrittenEvent,
} from './alarm-store.repository';

type Log = { error(obj: object, msg: string): void };

type Op = { kind: 'raise'; raise: RaiseRequest } | { kind: 'clear'; key: string; at: number };

export interface AlarmWriter {
  /** True while an alarm of the condition is active (stored or queued). */
  isActive(key: string): boolean;
  /** Active condition keys (a copy). */
  activeKeys(): string[];
  /** Queues a raise unless the condition is active already. */
  raise(request: RaiseRequest): void;
  /** Queues a clear at `at` when the condition is active. */
  clear(key: string, at: number): void;
  /** Starts writing what is queued. */
  flush(): void;
  /** Resolves once everything queued so far is written and published. */
  idle(): Promise<void>;
  /** Re-reads the active conditions from the database (at start, and after a failed write). */
  resync(): Promise<void>;
}

/** A writer over the database that hands what it committed to `publisher`. */
export function createAlarmWriter(deps: { db: Db; publisher: AlarmPublisher; log: () => Log }): AlarmWriter {
  const active = new Set<string>();
  let ops: Op[] = [];
  let chain: Promise<void> = Promise.resolve();

  async function resync(): Promise<void> {
    try {
      const rows = await activeConditions(deps.db);
      active.clear();
      for (const r of rows) active.add(r.key);
    } catch (error) {
      deps.log().error({ err: error }, 'alarm state resync failed');
    }
  }

  async function write(): Promise<void> {
    const batch = ops;
    ops = [];
    if (!batch.length) return;
    let written: WrittenEvent[];
    try {
      written = await deps.db.transaction().execute(async (trx) => {
        const out: WrittenEvent[] = [];
        // Consecutive ops of one kind go in one statement; the order of kinds is kept.
        for (let i = 0; i < batch.length;) {
          const kind = batch[i]!.kind;
          let j = i;
          while (j < batch.length && batch[j]!.kind === kind) j++;
          const run = batch.slice(i, j);
          if (kind === 'raise')
            out.push(
              ...(await raiseAlarms(
                trx,
                run.flatMap((o) => (o.kind === 'raise' ? [o.raise] : [])),
              )),
            );
          else
            out.push(
              ...(await clearAlarms(
                trx,
                run.flatMap((o) => (o.kind === 'clear' ? [o] : [])),
              )),
            );
          i = j;
        }
        return out;
      });
    } catch (error) {
      deps.log().error({ err: error, ops: batch.length }, 'alarm write failed');
      await resync();
      return;
    }
    await deps.publisher.publish(written);
  }

  return {
    isActive: (key) => active.has(key),
    activeKeys: () => [...active],
    raise(request) {
      if (active.has(request.key)) return;
      active.add(request.key);
      ops.push({ kind: 'raise', raise: request });
    },
    clear(key, at) {
      if (!active.delete(key)) return;
      ops.push({ kind: 'clear', key, at });
    },
    flush() {
      if (ops.length) chain = chain.then(write, write);
    },
    async idle() {
      let last: Promise<void>;
      do {
        if (ops.length) chain = chain.then(write, write);
        last = chain;
        await last;
      } while (last !== chain || ops.length);
    },
    resync,
  };
}
