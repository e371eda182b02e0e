// Bundles the agent into dist/cli.js, as the server's build does (scripts/bundle-node.mjs: @solar/* bundled
// in, better-sqlite3 and serialport resolved from node_modules at run time).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForNode } from '../../scripts/bundle-node.mjs';

await bundleForNode(path.dirname(fileURLToPath(import.meta.url)), { cli: 'src/cli.ts' });
