// `npm start`: install what is missing, build, then serve the console and /api from one process.
// Migrations run and the demo is seeded (on an empty database) by the server as it starts.
import { buildAll, ensureInstalled, spawnChild } from './lib.mjs';

ensureInstalled();
buildAll();
const port = process.env.PORT ?? '8080';
console.log(`→ starting the console on http://localhost:${port}`);
const server = spawnChild(process.execPath, ['--enable-source-maps', 'apps/server/dist/server.js'], {
  env: { ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
