import { E, type Problem } from '@solar/shared';
import { isTranslationKey, knownKey, type Translate, type TranslationKey } from './i18n-keys';

/** A failed call: the HTTP status and the server's RFC 9457 problem (keys are i18n keys). */
export class ApiError extends Error {
  readonly status: number;
  readonly problem: Problem;

  constructor(problem: Problem) {
    super(problem.detail ?? problem.title);
    this.name = 'ApiError';
    this.status = problem.status;
    this.problem = problem;
  }

  /** The i18n key that best describes the failure. */
  get messageKey(): TranslationKey {
    return messageKeyOf(this.problem);
  }
}

/** A structural check of the RFC 9457 shape (kept free of zod so the login page stays small). */
function isProblemBody(body: unknown): body is Problem {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  const errorsOk =
    b.errors === undefined ||
    (typeof b.errors === 'object' &&
      b.errors !== null &&
      Object.values(b.errors).every((v) => Array.isArray(v) && v.every((k) => typeof k === 'string')));
  return typeof b.title === 'string' && (b.detail === undefined || typeof b.detail === 'string') && errorsOk;
}

/** Turns any answer body into a problem; bodies that are not problems get a key from the status. */
export function toProblem(status: number, body: unknown): Problem {
  if (isProblemBody(body)) return { ...body, status };
  return { status, title: fallbackKey(status), detail: fallbackKey(status) };
}

function fallbackKey(status: number): TranslationKey {
  if (status === 0 || status === 502 || status === 503 || status === 504) return E.unavailable;
  if (status === 400 || status === 422) return E.badRequest;
  if (status === 401) return E.unauthorized;
  if (status === 403) return E.forbidden;
  if (status === 404) return E.notFound;
  if (status === 409) return E.conflict;
  if (status === 429) return E.tooManyRequests;
  return E.internal;
}

/** `detail` when it is an error key, else `title` when it is, else a key chosen by status. */
export function messageKeyOf(problem: Problem): TranslationKey {
  const isKey = (v: string | undefined): v is TranslationKey =>
    !!v && /^errors\.\w+$/.test(v) && isTranslationKey(v);
  if (isKey(problem.detail)) return problem.detail;
  if (isKey(problem.title)) return problem.title;
  return fallbackKey(problem.status);
}

/** A field path of a problem (`user_units.0.unit_id`) as an Ant Design name path. */
export function toNamePath(path: string): (string | number)[] {
  return path
    .split(/[.[\]]+/)
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** The field errors of a problem as Ant Design `setFields` entries with translated messages. */
export function fieldErrorsOf(
  problem: Problem,
  t: Translate,
): { name: (string | number)[]; errors: string[] }[] {
  return Object.entries(problem.errors ?? {})
    .filter(([path]) => path !== '' && path !== '/')
    .map(([path, keys]) => ({
      name: toNamePath(path.replace(/^\/|^body\./, '')),
      errors: keys.map((k) => t(knownKey(k, 'validation.invalidValue'))),
    }));
}
