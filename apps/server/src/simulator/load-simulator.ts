/**
 * The demo's simulator (apps/simulator) is an optional part of the server: a devDependency, imported
 * dynamically only when the in-process demo runs and handed from background.ts to the demo's parts, so the
 * server's run-time dependencies hold no code that makes the demo's "reality" and the KPI engine judges it
 * with @solar/pv-model alone (docs/pv-model.md). Everything else in the server imports only its types.
 */
import type * as SimulatorPackage from '@solar/simulator';

export type Simulator = typeof SimulatorPackage;

const PACKAGE_NAME = '@solar/simulator';

/** True when `error` says the simulator package itself is not installed (not one of its own imports). */
function isSimulatorMissing(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ERR_MODULE_NOT_FOUND' && error.message.includes(`'${PACKAGE_NAME}'`);
}

/**
 * The simulator package, or undefined when it is not installed (an install without devDependencies). The
 * literal specifier lets esbuild bundle it as a lazily evaluated module (apps/server/build.mjs); `load`
 * exists for the test that proves a missing package is tolerated.
 */
export async function loadSimulator(
  load: () => Promise<Simulator> = () => import('@solar/simulator'),
): Promise<Simulator | undefined> {
  try {
    return await load();
  } catch (error) {
    if (isSimulatorMissing(error)) return undefined;
    throw error;
  }
}
