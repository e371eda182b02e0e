// `npm run test:resilience [-- --fast] [vitest arguments…]`: the resilience suites (e2e/resilience/) against
// the built server. The full run takes 10 minutes and more; `--fast` (or RESILIENCE_FAST=1) runs the subset
// CI runs after `npm test`: every case that proves a hole stays closed, at smaller but still meaningful sizes
// (e2e/resilience/harness.ts, `FAST`), in a few minutes.
import { buildAll, run } from './lib.mjs';

const args = process.argv.slice(2);
const fast = args.includes('--fast') || process.env.RESILIENCE_FAST === '1';
const rest = args.filter((a) => a !== '--fast');

buildAll();
run('npx', ['vitest', 'run', '--config', 'e2e/resilience/vitest.config.ts', ...rest], {
  env: { ...process.env, RESILIENCE_FAST: fast ? '1' : '' },
});
