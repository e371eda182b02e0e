/**
 * Comments and test names are read by someone holding only this repository. They say why in place or point
 * to a page under docs/ (spec-differences.md, security.md, architecture.md, operations.md, benchmarks.md),
 * never to notes kept outside it or to the number of a work item, which tell that reader nothing.
 * Code is not checked here, only comments and the names given to describe/it/test.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SCANNED_DIRS = ['apps', 'packages', 'e2e', 'scripts'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'artifacts', 'coverage', '.vite', '.cache']);
const SOURCE = /\.(?:ts|tsx|mts|cts|js|mjs|cjs)$/;

const FORBIDDEN: { pattern: RegExp; why: string }[] = [
  { pattern: /NOTES\.md/, why: 'notes outside the repository' },
  { pattern: /\.\.\/shared\b/, why: 'a folder outside the repository' },
  { pattern: /\bissues? #?\d+/i, why: 'a work item number' },
];

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) sourceFiles(path.join(dir, entry.name), out);
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path.join(dir, entry.name));
  }
  return out;
}

const TEST_FUNCTIONS = new Set(['describe', 'it', 'test', 'bench']);

/** `it`, `it.skipIf(x)`, `describe.each(rows)`, `test.concurrent`: the test function a callee names. */
function testFunctionOf(callee: ts.Expression): string | undefined {
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return testFunctionOf(callee.expression);
  if (ts.isCallExpression(callee)) return testFunctionOf(callee.expression);
  return undefined;
}

/** Every comment of a file and every name given to a test, each with where it starts. */
function commentsAndTestNames(
  fileName: string,
  text: string,
): { source: ts.SourceFile; pos: number; text: string }[] {
  const kind = fileName.endsWith('x')
    ? ts.ScriptKind.TSX
    : fileName.endsWith('ts')
      ? ts.ScriptKind.TS
      : ts.ScriptKind.JS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const found = new Map<number, string>();
  const addComments = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) found.set(r.pos, text.slice(r.pos, r.end));
  };
  const visit = (node: ts.Node) => {
    addComments(ts.getLeadingCommentRanges(text, node.getFullStart()));
    addComments(ts.getTrailingCommentRanges(text, node.getEnd()));
    if (ts.isCallExpression(node) && TEST_FUNCTIONS.has(testFunctionOf(node.expression) ?? '')) {
      const name = node.arguments[0];
      if (name && (ts.isStringLiteralLike(name) || ts.isTemplateExpression(name)))
        found.set(name.getStart(), name.getText());
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...found].map(([pos, t]) => ({ source, pos, text: t }));
}

describe('comments and test names', () => {
  it('finds comments and test names, and not code', () => {
    const sample = [
      "const where = '../shared/x'; // see docs/architecture.md",
      '/** NOTES.md */',
      "it.skipIf(true)('issue 7 name', () => {});",
      "describe(`a ${'b'}`, () => {});",
    ].join('\n');
    const texts = commentsAndTestNames('sample.ts', sample).map((c) => c.text);
    expect(texts).toEqual(['// see docs/architecture.md', '/** NOTES.md */', "'issue 7 name'", "`a ${'b'}`"]);
  });

  it('point to docs in the repository, never to NOTES.md, ../shared or an issue number', () => {
    const offences: string[] = [];
    for (const dir of SCANNED_DIRS) {
      for (const file of sourceFiles(path.join(repoRoot, dir))) {
        if (file === fileURLToPath(import.meta.url)) continue; // its own patterns and sample
        const text = readFileSync(file, 'utf8');
        // Parsing every file takes seconds; only files whose text holds a forbidden pattern anywhere need it.
        if (!FORBIDDEN.some(({ pattern }) => pattern.test(text))) continue;
        for (const c of commentsAndTestNames(file, text)) {
          for (const { pattern, why } of FORBIDDEN) {
            const m = pattern.exec(c.text);
            if (!m) continue;
            const line = c.source.getLineAndCharacterOfPosition(c.pos + m.index).line + 1;
            offences.push(`${path.relative(repoRoot, file)}:${line}: "${m[0]}" (${why})`);
          }
        }
      }
    }
    expect(offences, 'say the why in place or point to a page under docs/').toEqual([]);
  });
});
