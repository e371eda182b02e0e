import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { flattenKeys, resources } from './index';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const known = new Set(flattenKeys(resources.tr_TR));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

/**
 * Literal keys the code hands to the translator: t('x.y'), i18nKey="x.y", titleKey: 'x.y', and message
 * keys in the contract and the server ('validation.…', 'errors.…', 'mail.…'). Keys built at run time
 * from a template are not seen here; their parts are covered by the parity test of the locale files.
 */
function usedKeys(file: string, messageKeysOnly = false): string[] {
  const text = readFileSync(file, 'utf8');
  const keys = new Set<string>();
  const patterns = messageKeysOnly
    ? [/['"]((?:validation|errors|mail)\.[a-zA-Z]\w*)['"]/g]
    : [
        /\bt\(\s*['"`]([a-zA-Z][\w-]*(?:\.[\w-]+)+)['"`]/g,
        /\bi18nKey=["']([a-zA-Z][\w-]*(?:\.[\w-]+)+)["']/g,
        /\b\w*[kK]ey:\s*['"]([a-zA-Z][\w-]*(?:\.[\w-]+)+)['"]/g,
        /['"]((?:validation|errors|mail)\.[a-zA-Z]\w*)['"]/g,
      ];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      keys.add(match[1]!);
    }
  }
  return [...keys];
}

describe('keys used by the code exist in the Turkish source', () => {
  // The server names SQL columns like 'signals.key', so only its message keys are checked.
  const roots = [
    ['apps/web/src', false],
    ['packages/shared/src', false],
    ['apps/server/src', true],
  ] as const;
  it.each(roots)('%s', (root, messageKeysOnly) => {
    const missing = sourceFiles(path.join(repo, root)).flatMap((file) =>
      usedKeys(file, messageKeysOnly)
        .filter((key) => !known.has(key))
        .map((key) => `${path.relative(repo, file)}: ${key}`),
    );
    expect(missing).toEqual([]);
  });

  it('finds keys at all (guards against a broken scanner)', () => {
    const found = sourceFiles(path.join(repo, 'packages/shared/src')).flatMap((file) => usedKeys(file));
    expect(found).toContain('validation.required');
    expect(found).toContain('pages.map');
  });
});
