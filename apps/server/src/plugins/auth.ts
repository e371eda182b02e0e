import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { E, hasPermission, type Method, type Page, type Permission, type UserUnit } from '@solar/shared';
import type { Db, Dialect } from '../db/database';
import type { TokenService } from '../lib/tokens';
import { sendProblem } from './errors';
import { findSessionCaller, type SessionState } from '../modules/auth';

/**
 * Who may call a route. Every /api route declares one in `config.access`; the server refuses to start
 * otherwise, so no route can be left open by forgetting it.
 * - `upsert`: POST x/{id} is `create` when id is 0 and `update` otherwise (docs/spec-differences.md, resource
 * calls).
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'authenticated' }
  /**
   * `alsoPages`: the route also opens to a caller holding (one of them, method), for data several pages show.
   * `adminOnly`: the pair is not enough, the caller must be the administrator (the whole system's settings,
   * log, sessions, backup, companies and roles): 403 for anyone else, whatever their permissions.
   */
  | {
      kind: 'permission';
      page: Page;
      method: Method | 'upsert';
      alsoPages?: readonly Page[];
      adminOnly?: boolean;
    }
  /** A machine ingest route: an `X-Api-Key` ingest key, or else a user token holding (page, method). */
  | { kind: 'ingest'; page: Page; method: Method };

export const access = {
  public: (): Access => ({ kind: 'public' }),
  authenticated: (): Access => ({ kind: 'authenticated' }),
  to: (page: Page, method: Method | 'upsert'): Access => ({ kind: 'permission', page, method }),
  /** View on any of these pages (the plants overview feeds the plants list, the map and the single-line picker). */
  toAny: (pages: readonly [Page, ...Page[]], method: Method): Access => ({
    kind: 'permission',
    page: pages[0],
    method,
    alsoPages: pages.slice(1),
  }),
  ingest: (page: Page, method: Method): Access => ({ kind: 'ingest', page, method }),
  /** The administrator alone; (page, method) stays the route's pair in the table and the menu. */
  admin: (page: Page, method: Method | 'upsert'): Access => ({
    kind: 'permission',
    page,
    method,
    adminOnly: true,
  }),
};

/** Who an accepted ingest key belongs to: exactly one of a device and a plant. */
export interface IngestPrincipal {
  keyId: number;
  deviceId: number | null;
  plantId: number | null;
}

/** The signed-in caller, loaded from the database on each request (not trusted from the token). */
export interface Caller {
  userId: number;
  name: string;
  roleId: number;
  isAdmin: boolean;
  /** The user's company (null only for the admin); `units` narrow it further (lib/scope.ts). */
  companyId: number | null;
  permissions: Permission[];
  units: UserUnit[];
  languageId: number;
  remember: boolean;
  /** The sign-in the token belongs to (user_sessions), when the token names one. */
  sessionId?: string;
  /** The token's generation within its sign-in (a refresh retires it). */
  tokenGeneration: number;
  can(page: Page, method: Method): boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    caller: Caller | null;
    /** Set on `ingest` routes called with a valid X-Api-Key; caller stays null then. */
    ingestKey: IngestPrincipal | null;
  }
}

/** The caller of an authenticated route (the access hook guarantees it is there). */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('callerOf used on a route without authentication');
  return request.caller;
}

export function methodFor(
  access: Extract<Access, { kind: 'permission' | 'ingest' }>,
  params: unknown,
): Method {
  if (access.method !== 'upsert') return access.method;
  const id = Number((params as { id?: unknown } | undefined)?.id);
  return id === 0 ? 'create' : 'update';
}

/**
 * The token of an `Authorization: Bearer …` header, or undefined. The scheme name is matched without
 * regard to case (RFC 9110 §11.1: `bearer` and `BEARER` are the same scheme).
 */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * Does the sign-in still accept a token of `generation` at `now`? Not past its absolute end; the current
 * generation, or the one just replaced by a refresh while its grace lasts (another tab may still send it).
 * A missing sign-in (signed out, expired, never recorded) accepts nothing (docs/security.md).
 */
export function sessionAccepts(session: SessionState | undefined, generation: number, now: number): boolean {
  if (!session || now >= session.absoluteExpiresAt) return false;
  if (generation === session.tokenGeneration) return true;
  return (
    generation === session.tokenGeneration - 1 &&
    session.previousValidUntil !== null &&
    now < session.previousValidUntil
  );
}

/** Routes registered with their access, for the permission test that walks them all. */
export interface AccessEntry {
  method: string;
  url: string;
  access: Access;
}

declare module 'fastify' {
  interface FastifyInstance {
    accessTable: AccessEntry[];
  }
}

export const authPlugin = fp(
  (
    app: FastifyInstance,
    options: {
      db: Db;
      /** Picks the JSON functions of the one statement that loads the caller (session.repository.ts). */
      dialect: Dialect;
      tokens: TokenService;
      /** The clock sign-ins' ends are compared with (ctx.now). */
      now: () => number;
      /** Checks an X-Api-Key ingest key; without it `ingest` routes take user tokens only. */
      verifyIngestKey?: (key: string) => Promise<IngestPrincipal | null>;
      /** Told of each authenticated request's session (the session record throttles its writes). */
      sessionSeen?: (sessionId: string) => void;
    },
  ) => {
    const { db, dialect, tokens, now, verifyIngestKey, sessionSeen } = options;
    app.decorateRequest('caller', null);
    app.decorateRequest('ingestKey', null);
    app.decorate('accessTable', [] as AccessEntry[]);

    app.addHook('onRoute', (route) => {
      const url = route.url.toLowerCase();
      if (!url.startsWith('/api/')) return;
      // The OpenAPI document and its UI are public documentation, registered by @fastify/swagger-ui.
      if (url === '/api/docs' || url.startsWith('/api/docs/')) {
        route.config = { ...route.config, access: access.public() };
      }
      const declared = route.config?.access;
      if (!declared) throw new Error(`Route ${String(route.method)} ${route.url} declares no access`);
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD') app.accessTable.push({ method, url: route.url, access: declared });
      }
    });

    async function authenticate(request: FastifyRequest): Promise<Caller | null> {
      const token = bearerToken(request.headers.authorization);
      if (!token) return null;
      const claims = await tokens.verify(token);
      // Every sign-in since user_sessions records it (migration 0022) names one; a token naming none could be
      // neither signed out nor retired, so it is refused.
      if (!claims?.sessionId) return null;
      // One statement, one round trip: the user with its permissions and units. No cache, so a
      // password change, deactivation, role, company or unit change or revocation counts on the next request.
      const user = await findSessionCaller(db, dialect, Number(claims.sub), claims.sessionId);
      // The version ends tokens issued before a password change even within the same second, where the
      // whole-second iat cannot tell them apart (docs/security.md, hole 1).
      if (!user || !user.isActive || claims.version !== user.tokenVersion) return null;
      if (claims.iat < user.tokensValidAfter) return null;
      if (!user.companyActive || !sessionAccepts(user.session, claims.generation, now())) return null;
      const { permissions, units } = user;
      sessionSeen?.(claims.sessionId);
      return {
        userId: user.id,
        name: `${user.name} ${user.surname}`,
        roleId: user.roleId,
        isAdmin: user.isAdmin,
        companyId: user.companyId,
        permissions,
        units,
        languageId: user.languageId,
        remember: claims.remember,
        sessionId: claims.sessionId,
        tokenGeneration: claims.generation,
        can: (page, method) => user.isAdmin || hasPermission(permissions, page, method),
      };
    }

    app.addHook('onRequest', async (request, reply) => {
      const declared = request.routeOptions.config?.access;
      if (!declared || declared.kind === 'public') return;
      const apiKey = request.headers['x-api-key'];
      if (declared.kind === 'ingest' && apiKey !== undefined) {
        const principal =
          typeof apiKey === 'string' && verifyIngestKey ? await verifyIngestKey(apiKey) : null;
        if (!principal) return sendProblem(reply, 401, E.invalidApiKey);
        request.ingestKey = principal;
        return;
      }
      request.caller = await authenticate(request);
      if (!request.caller) return sendProblem(reply, 401, E.unauthorized);
      if (declared.kind === 'permission' || declared.kind === 'ingest') {
        const method = methodFor(declared, request.params);
        const pages = [declared.page, ...(declared.kind === 'permission' ? (declared.alsoPages ?? []) : [])];
        if (!pages.some((page) => request.caller?.can(page, method)))
          return sendProblem(reply, 403, E.forbidden);
        if (declared.kind === 'permission' && declared.adminOnly && !request.caller.isAdmin)
          return sendProblem(reply, 403, E.forbidden);
      }
    });
  },
  { name: 'auth', dependencies: ['errors'] },
);
