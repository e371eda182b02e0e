import type { FastifyRequest } from 'fastify';
import { callerOf } from '../plugins/auth';
import type { Actor } from './actor';

/** The actor of an authenticated request, for the services. */
export function actorOf(request: FastifyRequest): Actor {
  const caller = callerOf(request);
  return {
    userId: caller.userId,
    isAdmin: caller.isAdmin,
    companyId: caller.companyId,
    units: caller.units,
    ip: request.ip ?? null,
  };
}
