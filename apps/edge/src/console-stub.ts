/**
 * For the end-to-end test and the bench: the console's edge endpoints (GET /api/edge/config, POST
 * /api/edge/health) answered from a given configuration, every other call passed through to a real
 * console. While the console is down, the agent's connection is cut, as a dead 4G link would.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { edgeHealthBody, type EdgeConfigAnswer, type EdgeHealthBody } from '@solar/shared';

/** Passes a request on to the console on `port` as it came, and its answer back (a proxy's one job). */
export function passThrough(port: number, req: http.IncomingMessage, res: http.ServerResponse): void {
  const upstream = http.request(
    { host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
}

export interface ConsoleStub {
  url: string;
  /** Every health report received, oldest first. */
  health: EdgeHealthBody[];
  close(): Promise<void>;
}

export async function startConsoleStub(options: {
  consolePort: number;
  key: string;
  config: EdgeConfigAnswer;
}): Promise<ConsoleStub> {
  const health: EdgeHealthBody[] = [];
  const server = http.createServer((req, res) => {
    if (req.url === '/api/edge/config') {
      res.writeHead(req.headers['x-api-key'] === options.key ? 200 : 401, {
        'content-type': 'application/json',
      });
      res.end(JSON.stringify(options.config));
      return;
    }
    if (req.url === '/api/edge/health') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        health.push(edgeHealthBody.parse(JSON.parse(body)));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            server_time: new Date().toISOString(),
            clock_offset_ms: 0,
            config_version: options.config.config_version,
          }),
        );
      });
      return;
    }
    passThrough(options.consolePort, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    health,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
