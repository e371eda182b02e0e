import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The CSP source of a tile URL template: its scheme and host, with Leaflet's `{s}` subdomain placeholder
 * as a wildcard (`https://{s}.tile.example.org/{z}/{x}/{y}.png` → `https://*.tile.example.org`).
 */
export function tileSource(tileUrl: string): string {
  const origin = /^(https?:\/\/[^/]+)/.exec(tileUrl)?.[1];
  if (!origin) throw new Error(`not an http(s) tile URL: ${tileUrl}`);
  return origin.replace('{s}', '*');
}

/** HSTS max-age: one year, the value browsers' preload lists ask for; subdomains are not claimed. */
export const HSTS_MAX_AGE_S = 31_536_000;

/**
 * Security headers. The CSP allows no inline or foreign scripts; inline styles are allowed because Ant
 * Design writes its CSS-in-JS into <style> elements at run time.
 */
export const securityPlugin = fp(
  async (app: FastifyInstance, { tileUrl, https }: { tileUrl: () => string; https: boolean }) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          // The map's tiles come from its configured tile server (the admin panel's setting, by default
          // MAP_TILE_URL), and from nowhere else. A function: helmet builds the header per answer, so a
          // changed tile server is admitted from the next answer on, without a restart.
          imgSrc: ["'self'", 'data:', 'blob:', () => tileSource(tileUrl())],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
        },
      },
      // frame-ancestors 'none' above is the one rule on framing; X-Frame-Options: SAMEORIGIN said otherwise.
      xFrameOptions: false,
      crossOriginEmbedderPolicy: false,
      // Only a console whose PUBLIC_URL is https tells browsers to use nothing else (docs/security.md); sent
      // on every answer, since TLS usually ends at a proxy in front. A console on http must stay reachable.
      strictTransportSecurity: https ? { maxAge: HSTS_MAX_AGE_S, includeSubDomains: false } : false,
    });
    // API answers carry tokens and company data: no browser or proxy cache may keep them. Routes that
    // choose their own policy (none today) keep it; the web files have theirs (plugins/web.ts).
    app.addHook('onSend', async (request, reply) => {
      if (/^\/api\//i.test(request.url) && !reply.hasHeader('cache-control')) {
        void reply.header('cache-control', 'no-store');
      }
    });
  },
  { name: 'security' },
);
