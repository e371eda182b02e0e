import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The server judges the demo's data with @solar/pv-model and never with the simulator that made it
 * (docs/pv-model.md): the simulator is a devDependency, reached at run time only through
 * load-simulator.ts, and the KPI engine does not even name it.
 */
const SERVER_ROOT = path.resolve(import.meta.dirname, '../..');
const SRC = path.join(SERVER_ROOT, 'src');
const LOADER = path.join(SRC, 'simulator', 'load-simulator.ts');

/** The server's run-time sources: no tests and no test support. */
function runtimeSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return full === path.join(SRC, 'test') ? [] : runtimeSources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Imports of @solar/simulator that bring values (not `import type`), static or dynamic. */
function valueImportsOfSimulator(source: string): string[] {
  const statements = source.match(/^import\s[^;]*?from\s+'@solar\/simulator';/gms) ?? [];
  const dynamic = source.match(/import\(\s*'@solar\/simulator'\s*\)/g) ?? [];
  return [...statements.filter((s) => !/^import\s+type\s/.test(s)), ...dynamic];
}

describe('the server and the simulator', () => {
  it('lists the simulator among devDependencies only, and @solar/pv-model among dependencies', () => {
    const pkg = JSON.parse(readFileSync(path.join(SERVER_ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(Object.keys(pkg.dependencies)).not.toContain('@solar/simulator');
    expect(Object.keys(pkg.dependencies)).toContain('@solar/pv-model');
    expect(Object.keys(pkg.devDependencies)).toContain('@solar/simulator');
  });

  it('imports simulator values nowhere at run time but in load-simulator.ts', () => {
    const offenders = runtimeSources(SRC)
      .filter((file) => file !== LOADER)
      .filter((file) => valueImportsOfSimulator(readFileSync(file, 'utf8')).length > 0)
      .map((file) => path.relative(SERVER_ROOT, file));
    expect(offenders).toEqual([]);
    expect(valueImportsOfSimulator(readFileSync(LOADER, 'utf8'))).toHaveLength(1);
  });

  it('keeps the KPI module free of the simulator, types included', () => {
    const kpi = path.join(SRC, 'modules', 'kpi');
    const naming = runtimeSources(kpi).filter((file) =>
      readFileSync(file, 'utf8').includes('@solar/simulator'),
    );
    expect(naming.map((file) => path.relative(SERVER_ROOT, file))).toEqual([]);
  });
});
