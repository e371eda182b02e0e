import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import { StringHealthService } from './string-health.service';

export interface StringHealthJob {
  /** Judges every inverter's strings now (the timer does it every interval). */
  runOnce(): Promise<{ inverters: number; open: number }>;
  /** Stops the timer and waits for a pass under way. */
  stop(): Promise<void>;
}

/**
 * String faults on a timer (docs/string-health.md): every `intervalMs` (5 minutes, the rollup the engine
 * reads) the last day of every inverter's strings is judged and the alarm engine raises and clears their
 * alarms. background.ts runs it beside the alarm engine on the node that holds the cluster's lease.
 */
export function startStringHealthJob(
  ctx: Pick<AppContext, 'db' | 'dialect' | 'now'> & {
    alarmEngine: Pick<AppContext['alarmEngine'], 'reconcile'>;
  },
  log: Pick<FastifyBaseLogger, 'error'>,
  options: { intervalMs?: number } = {},
): StringHealthJob {
  const service = new StringHealthService(ctx);
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  const runOnce = () => service.evaluate(ctx.alarmEngine);
  const timer = setInterval(
    () => {
      if (busy) return; // a slow pass is not stacked under the next one
      busy = true;
      running = runOnce()
        .catch((error: unknown) => log.error({ err: error }, 'string health judgement failed'))
        .finally(() => (busy = false));
    },
    options.intervalMs ?? 5 * 60_000,
  );
  timer.unref();
  return {
    runOnce,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
