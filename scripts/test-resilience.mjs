// `npm run test:resilience [-- --fast] [vitest arguments…]`: the resilience suites (e2e/resilience/) against
// the built server. The full run takes 10 minutes and more; `--fast` (or RESILIENCE_FAST=1) runs every case
// at smaller but still meaningful sizes (e2e/resilience/harness.ts, `FAST`); CI runs five of its files this
// way after `npm test` (.ci/run). It ends with a summary in the form `npm test` prints, so that CI's
// "Summaries" show it beside the other runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildAll, runOutcome, runStatus } from './lib.mjs';

const args = process.argv.slice(2);
const fast = args.includes('--fast') || process.env.RESILIENCE_FAST === '1';
const rest = args.filter((a) => a !== '--fast');

buildAll();
const reportDir = mkdtempSync(path.join(tmpdir(), 'solar-resilience-report-'));
const report = path.join(reportDir, 'resilience.json');
const started = Date.now();
const status = runStatus(
  'npx',
  [
    'vitest',
    'run',
    '--config',
    'e2e/resilience/vitest.config.ts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile=${report}`,
    ...rest,
  ],
  { env: { ...process.env, RESILIENCE_FAST: fast ? '1' : '' } },
);
const seconds = Math.round((Date.now() - started) / 1000);
const { failures, ...counts } = runOutcome(report, status);
rmSync(reportDir, { recursive: true, force: true });

console.log('\n──────── summary ────────');
const name = fast ? 'resilience-fast' : 'resilience';
console.log(`${name.padEnd(16)} ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
for (const f of failures) console.log(`  ✗ ${f}`);
console.log(`time: ${seconds} s`);
process.exit(counts.failed > 0 ? 1 : 0);
