// `npm run check`: the type check, the lint and the format check, two at a time. Each is one single-threaded
// process, so on a machine of two cores or more the three take about as long as the lint alone (CI has a
// time limit, docs/operations.md). Each one's output is printed whole when it ends, so the lines of two never
// interleave; the exit status is the first failure's.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { ensureInstalled, root } from './lib.mjs';

// The lint first: it takes longest, and the other two share the second core while it runs.
const CHECKS = ['lint', 'typecheck', 'format:check'];

ensureInstalled();

/** Runs `npm run <script>` with its output kept, and answers its exit status and output. */
function runCheck(script) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', script], { cwd: root, env: process.env });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      const seconds = Math.round((Date.now() - started) / 1000);
      process.stdout.write(
        `\n■ ${script}: ${status === 0 ? 'passed' : `FAILED (exit ${status})`}, ${seconds} s\n`,
      );
      process.stdout.write(Buffer.concat(output));
      resolve(status);
    });
  });
}

const slots = Math.max(1, Math.min(2, availableParallelism()));
const queue = [...CHECKS];
const statuses = [];
await Promise.all(
  Array.from({ length: slots }, async () => {
    for (let script = queue.shift(); script; script = queue.shift()) statuses.push(await runCheck(script));
  }),
);
process.exit(statuses.find((s) => s !== 0) ?? 0);
