import { E } from '@solar/shared';
import { conflict, notFound } from './http-errors';
import type { ScopeSubject } from './scope';

/** Who is acting, as services see it: the caller's identity and scope, and where the request came from. */
export interface Actor extends ScopeSubject {
  userId: number;
  ip: string | null;
}

/** The value, or a 404 (also used for records outside the caller's scope: their existence is not revealed). */
export function found<T>(value: T | undefined): T {
  if (value === undefined) throw notFound();
  return value;
}

/** 409 errors.hasChildren naming which kinds of children are left, e.g. `{ plants: ['errors.hasChildren'] }`. */
export function hasChildren(children: Record<string, number>) {
  const errors = Object.fromEntries(
    Object.entries(children)
      .filter(([, n]) => n > 0)
      .map(([kind]) => [kind, [E.hasChildren]]),
  );
  return conflict(E.hasChildren, errors);
}
