// `npm run test:node22 [-- suite…]`: test suites again on Node 22 LTS, beside the machine's Node that
// `npm test` runs on (docs/operations.md, "Supported Node versions"). CI runs it after `npm test` with the
// default list below; `npm run test:node22 -- web simulator` runs others, and
// `npm run test:node22 -- exec <command…>` runs any command on Node 22 instead, e.g. one test file:
// `… -- exec npx vitest run --root apps/server src/app.test.ts`.
//
// Node 22 comes from the npm registry's `node` package: a complete Node build, headers included, so nothing
// is downloaded from anywhere but the registry. It is kept in node_modules/.cache/node22.
//
// better-sqlite3 is the one native package: its binary is built for one Node ABI. It is compiled for Node 22
// against that build's headers, used for the run, and the machine Node's binary is put back afterwards, even
// when the run fails. Both binaries are kept by ABI in the cache, so a second run compiles nothing.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ensureInstalled, root, run, runStatus } from './lib.mjs';

const NODE_SPEC = process.env.NODE22_SPEC ?? 'node@22';
// The suites whose code meets the runtime where Node lines differ: the native better-sqlite3 binary, built
// for this line (the server on SQLite, the edge agent's queue), the serial-port and socket code (modbus,
// edge), crypto, fetch, streams and worker threads (the server), and the shared schemas everything loads.
// The server's PostgreSQL run repeats the same code on another database, not another runtime; the web,
// i18n and simulator suites are plain logic or the same sockets. Leaving them out keeps CI within its
// time limit (docs/operations.md); `npm run test:node22 -- server web i18n simulator` runs them too.
const DEFAULT_SUITES = ['shared', 'pv-model', 'modbus', 'edge', 'server-sqlite'];
const args = process.argv.slice(2);
const command =
  args[0] === 'exec' ? args.slice(1) : ['node', 'scripts/test.mjs', ...(args.length ? args : DEFAULT_SUITES)];

ensureInstalled();

const cacheDir = path.join(root, 'node_modules', '.cache', 'node22');
const shim = path.join(cacheDir, 'node_modules', '.bin', 'node');
if (!existsSync(shim)) {
  console.log(`→ installing ${NODE_SPEC} from the npm registry into ${path.relative(root, cacheDir)}…`);
  mkdirSync(cacheDir, { recursive: true });
  run('npm', [
    'install',
    '--prefix',
    cacheDir,
    '--no-save',
    '--no-package-lock',
    '--no-audit',
    '--no-fund',
    NODE_SPEC,
  ]);
}

/** Asks the Node 22 binary something (its version, its ABI). */
function ask(expression) {
  const result = spawnSync(shim, ['-p', expression], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${shim} -p ${expression} failed: ${result.stderr}`);
  return result.stdout.trim();
}
// The `node` package's preinstall puts the platform's build (bin/, include/node/) in a package of its own,
// node-<platform>-<arch>; node-gyp compiles against that build's headers.
const nodePrefix = [
  path.join(cacheDir, 'node_modules', 'node', 'node_modules', `node-${process.platform}-${process.arch}`),
  path.join(cacheDir, 'node_modules', `node-${process.platform}-${process.arch}`),
].find((dir) => existsSync(path.join(dir, 'include', 'node', 'common.gypi')));
if (!nodePrefix) throw new Error(`no Node build with headers under ${cacheDir}`);
const nodeVersion = ask('process.version');
const nodeAbi = ask('process.versions.modules');
console.log(`→ ${nodeVersion} (ABI ${nodeAbi}) from ${path.relative(root, nodePrefix)}`);

const sqliteDir = path.join(root, 'node_modules', 'better-sqlite3');
const sqliteVersion = JSON.parse(readFileSync(path.join(sqliteDir, 'package.json'), 'utf8')).version;
const binary = path.join(sqliteDir, 'build', 'Release', 'better_sqlite3.node');
const binaryCache = path.join(cacheDir, 'better-sqlite3');
const cached = (abi) => path.join(binaryCache, `${sqliteVersion}-abi${abi}.node`);
mkdirSync(binaryCache, { recursive: true });

// The machine Node's binary, to put back at the end.
const ownAbi = process.versions.modules;
copyFileSync(binary, cached(ownAbi));

const node22Env = {
  ...process.env,
  PATH: `${path.join(nodePrefix, 'bin')}${path.delimiter}${process.env.PATH}`,
};
let status = 1;
try {
  if (existsSync(cached(nodeAbi))) {
    copyFileSync(cached(nodeAbi), binary);
  } else {
    console.log(`→ compiling better-sqlite3 ${sqliteVersion} for ${nodeVersion}…`);
    // npm's own node-gyp against the Node 22 build's headers (npm_config_nodedir outranks any .npmrc
    // nodedir, which points at the machine Node's). Its install script first asks for a prebuilt binary from
    // GitHub; where only the npm registry is reachable that fails at once and it compiles.
    const built = runStatus('npm', ['rebuild', 'better-sqlite3', '--foreground-scripts'], {
      env: { ...node22Env, npm_config_nodedir: nodePrefix },
    });
    if (built !== 0) throw new Error(`better-sqlite3 did not compile for ${nodeVersion}`);
    copyFileSync(binary, cached(nodeAbi));
  }
  const check = spawnSync(
    'node',
    ['-e', "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"],
    { cwd: path.join(root, 'apps', 'server'), env: node22Env, stdio: 'inherit' },
  );
  if (check.status !== 0) throw new Error(`better-sqlite3 does not load on ${nodeVersion}`);

  console.log(`\n■ on ${nodeVersion}: ${command.join(' ')}`);
  status =
    spawnSync(command[0], command.slice(1), { cwd: root, env: node22Env, stdio: 'inherit' }).status ?? 1;
} finally {
  // A failed compile leaves no build directory (node-gyp rebuild cleans it first).
  mkdirSync(path.dirname(binary), { recursive: true });
  copyFileSync(cached(ownAbi), binary);
  console.log(`→ better-sqlite3 binary for ${process.version} put back`);
}
console.log(status === 0 ? `\npassed on ${nodeVersion}` : `\nfailed on ${nodeVersion} (exit ${status})`);
process.exit(status);
