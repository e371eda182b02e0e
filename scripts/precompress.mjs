// Writes .gz and .br next to every compressible file of a build, so the server sends them as they are
// (@fastify/static `preCompressed`) instead of compressing on every request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dir = path.resolve(process.argv[2] ?? 'dist');
const compressible = /\.(js|css|html|svg|json|txt|map)$/;
let files = 0;
function walk(folder) {
  for (const name of readdirSync(folder)) {
    const file = path.join(folder, name);
    if (statSync(file).isDirectory()) walk(file);
    else if (compressible.test(name) && !name.endsWith('.map')) {
      const data = readFileSync(file);
      if (data.length < 1024) continue;
      writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      writeFileSync(
        `${file}.br`,
        brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      );
      files++;
    }
  }
}
walk(dir);
console.log(`precompressed ${files} files in ${path.relative(process.cwd(), dir) || '.'}`);
