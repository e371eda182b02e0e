// `npm run dev`: the server with tsx watch on :8080 and Vite with hot reload on :5173 (proxying /api).
import { ensureInstalled, spawnChild } from './lib.mjs';

ensureInstalled();
const children = [
  spawnChild('npm', ['run', 'dev', '-w', 'apps/server'], { env: { ...process.env, WEB_DIST: '' } }),
  spawnChild('npm', ['run', 'dev', '-w', 'apps/web']),
];
console.log('→ server on http://localhost:8080/api, console with hot reload on http://localhost:5173');
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exit(code ?? 0);
  });
