// Helpers shared by the start, dev and test scripts. Plain Node: they run before any package is installed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Runs a command in the repo root, inheriting the terminal; exits the script if it fails. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    console.error(`\n✗ ${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}

/** Like run, but answers the exit code instead of exiting. */
export function runStatus(command, args, options = {}) {
  return spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options }).status ?? 1;
}

export function spawnChild(command, args, options = {}) {
  return spawn(command, args, { cwd: root, stdio: 'inherit', ...options });
}

/** Installs the locked packages when node_modules is missing or older than package-lock.json. */
export function ensureInstalled() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('→ installing packages (npm ci)…');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

/** Builds the web app (Vite) and the server bundle (esbuild). */
export function buildAll() {
  console.log('→ building web and server…');
  run('npm', ['run', 'build', '--silent']);
}

/**
 * Names of the failed tests in a vitest JSON report, each with its file and the first line of its error, so
 * the summary (the part of a long CI log people read) says what failed without scrolling back.
 */
/**
 * What one vitest run did, from its JSON report (absent when it ended before writing one) and its exit
 * status: counts of passed, failed and skipped tests, and the failed tests named. A run that failed without
 * a failed test (a suite that did not load, a crash) counts one failure.
 */
export function runOutcome(reportFile, status) {
  let counts = { passed: 0, failed: 0, skipped: 0 };
  let failures = [];
  if (existsSync(reportFile)) {
    const json = JSON.parse(readFileSync(reportFile, 'utf8'));
    counts = {
      passed: json.numPassedTests,
      failed: json.numFailedTests + (json.numFailedTestSuites > 0 && json.numFailedTests === 0 ? 1 : 0),
      skipped: json.numPendingTests + json.numTodoTests,
    };
    failures = failedTests(json);
  }
  if (status !== 0 && counts.failed === 0) counts.failed = 1;
  return { ...counts, failures };
}

export function failedTests(json) {
  const out = [];
  for (const file of json.testResults ?? []) {
    const rel = path.relative(root, file.name);
    const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failed) {
      const first = String(t.failureMessages?.[0] ?? '')
        .split('\n')[0]
        .slice(0, 200);
      out.push(`${rel} > ${t.fullName}${first ? `: ${first}` : ''}`);
    }
    if (!failed.length && file.status === 'failed')
      out.push(`${rel}: ${String(file.message ?? '').split('\n')[0]}`);
  }
  return out;
}
