/**
 * Deadlines for the benchmarks. `npm run bench` shows a benchmark's output only once its process ends
 * (scripts/bench.mjs), so a benchmark waiting for something that never comes looked like a busy one, at
 * near-zero CPU, for as long as anyone waited. Each phase therefore has a limit; a phase past it, or a
 * process still held open by something nobody closed once the benchmark is done, ends the run with a
 * message naming what did not come and a non-zero exit.
 */

/** Seconds a setup or teardown phase may take (BENCH_PHASE_SECONDS, default 180: generous on a busy machine). */
export const PHASE_SECONDS = Number(process.env.BENCH_PHASE_SECONDS ?? 180);
/** Seconds a measured phase may go without progress (BENCH_STALL_SECONDS, default 60). */
export const STALL_SECONDS = Number(process.env.BENCH_STALL_SECONDS ?? 60);
/** After the benchmark is done, how long the process may take to end on its own. */
const EXIT_GRACE_MS = 10_000;

/** Runs one phase; rejects naming it when it takes longer than `seconds`. */
export async function phase<T>(name: string, work: () => Promise<T>, seconds = PHASE_SECONDS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name} did not finish within ${seconds} s`)), seconds * 1000);
  });
  try {
    return await Promise.race([work(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Polls `progress` every few milliseconds until `done` says so. Rejects when the progress figure has not
 * moved for `stallSeconds` (with `describe()`, what was counted so far, in the message) or when `failed`
 * rejects first (the load generator exiting with an error).
 */
export async function waitWithProgress(options: {
  name: string;
  progress: () => number;
  done: () => boolean;
  describe: () => string;
  failed?: Promise<unknown>;
  stallSeconds?: number;
}): Promise<void> {
  const stallMs = (options.stallSeconds ?? STALL_SECONDS) * 1000;
  let failure: unknown;
  let hasFailed = false;
  void options.failed?.catch((error: unknown) => {
    failure = error;
    hasFailed = true;
  });
  let last = options.progress();
  let movedAt = Date.now();
  while (!options.done()) {
    if (hasFailed) throw new Error(`${options.name} failed: ${String(failure)}`);
    const now = Date.now();
    const current = options.progress();
    if (current !== last) {
      last = current;
      movedAt = now;
    } else if (now - movedAt > stallMs) {
      throw new Error(`${options.name} made no progress for ${stallMs / 1000} s (${options.describe()})`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * Runs a benchmark's body and makes sure its process ends. On a failure: prints it, runs `cleanup` (within
 * its own limit: a broker of the benchmark's own must not outlive it) and exits 1. On success: if the
 * process is still held open `EXIT_GRACE_MS` later, names what holds it and exits 1.
 */
export async function runBench(
  bench: string,
  body: () => Promise<void>,
  cleanup: () => Promise<void> = () => Promise.resolve(),
): Promise<void> {
  try {
    await body();
  } catch (error) {
    console.error(`${bench} FAILED: ${error instanceof Error ? error.message : String(error)}`);
    await phase('cleanup after the failure', cleanup, 30).catch((e: unknown) =>
      console.error(`${bench}: ${String(e)}`),
    );
    process.exit(1);
  }
  await phase('cleanup', cleanup).catch((error: unknown) => {
    console.error(`${bench} FAILED: ${String(error)}`);
    process.exit(1);
  });
  setTimeout(() => {
    console.error(
      `${bench} FAILED: done, but the process was still held open ${EXIT_GRACE_MS / 1000} s later by ` +
        `${process.getActiveResourcesInfo().join(', ')} (a connection or timer nobody closed)`,
    );
    process.exit(1);
  }, EXIT_GRACE_MS).unref();
}
