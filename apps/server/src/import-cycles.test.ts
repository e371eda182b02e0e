import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No import cycle anywhere in the repository, type-only imports included. ESLint's import-x/no-cycle guards
 * the runtime graph but skips `import type` by design; a cycle of types still ties two parts so that
 * neither can move or be read alone (docs/architecture.md, "Module boundaries"). This walks every
 * TypeScript file's imports, re-exports and dynamic imports and fails on each strongly connected group.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const TREES = [
  'packages/shared/src',
  'packages/i18n/src',
  'packages/pv-model/src',
  'packages/modbus/src',
  'apps/edge/src',
  'apps/edge/bench',
  'apps/simulator/src',
  'apps/server/src',
  'apps/server/bench',
  'apps/web/src',
  'e2e',
];
const WORKSPACE: Record<string, string> = {
  '@solar/shared': 'packages/shared/src/index.ts',
  '@solar/i18n': 'packages/i18n/src/index.ts',
  '@solar/pv-model': 'packages/pv-model/src/index.ts',
  '@solar/modbus': 'packages/modbus/src/index.ts',
  '@solar/simulator': 'apps/simulator/src/index.ts',
};
/**
 * AppContext: declarations only, the one place where the services buildApp makes meet the modules that
 * receive them. Every module names it and it names the services' types, so edges into it are left out; a
 * cycle through it cannot order any code.
 */
const HUB = 'apps/server/src/context.ts';

function sourceFiles(dir: string): string[] {
  if (!existsSync(path.join(ROOT, dir))) return [];
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(rel);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [rel] : [];
  });
}

function resolve(from: string, specifier: string): string | undefined {
  if (WORKSPACE[specifier]) return WORKSPACE[specifier];
  if (!specifier.startsWith('.')) return undefined;
  const base = path.posix
    .normalize(path.posix.join(path.posix.dirname(from), specifier))
    .replace(/\.js$/, '');
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find(
    (candidate) => /\.tsx?$/.test(candidate) && existsSync(path.join(ROOT, candidate)),
  );
}

/** Every file's imports, `import type` and `export … from` included. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of TREES.flatMap(sourceFiles)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(path.join(ROOT, file), 'utf8'), true, true);
    const targets = importedFiles
      .map((imported) => resolve(file, imported.fileName))
      .filter((target): target is string => target !== undefined && target !== HUB && target !== file);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The groups of files that reach each other (Tarjan's strongly connected components), larger than one. */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('import cycles', () => {
  it('has none, type-only imports included', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(500);
    expect(cycles(graph)).toEqual([]);
  });
});
