import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSimulator, type Simulator } from './load-simulator';

/**
 * A module outside the repository that imports `specifier` when called: Node resolves the package from
 * there and finds no node_modules, exactly as in an install without the simulator.
 */
const outside = mkdtempSync(path.join(tmpdir(), 'no-simulator-'));
afterAll(() => rmSync(outside, { recursive: true, force: true }));
function importFromOutside(specifier: string): () => Promise<Simulator> {
  const file = path.join(outside, `${specifier.replace(/\W/g, '_')}.mjs`);
  writeFileSync(file, `export const load = () => import(${JSON.stringify(specifier)});\n`);
  return async () => {
    const probe = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as {
      load: () => Promise<Simulator>;
    };
    return probe.load();
  };
}

describe('loadSimulator', () => {
  it('loads the simulator package where it is installed (the repository, with devDependencies)', async () => {
    const simulator = await loadSimulator();
    expect(typeof simulator?.createVirtualPlant).toBe('function');
  });

  it('answers undefined where the package is not installed, so the server starts without the demo', async () => {
    await expect(loadSimulator(importFromOutside('@solar/simulator'))).resolves.toBeUndefined();
  });

  it('still fails loudly when something else is missing', async () => {
    await expect(loadSimulator(importFromOutside('@solar/not-a-package'))).rejects.toThrow(
      /@solar\/not-a-package/,
    );
  });
});
