import { E } from '@solar/shared';

/**
 * An error with an HTTP status that the error plugin turns into a problem object. `detail` is an i18n key
 * (errors.*) so the console can show it in the user's language.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly errors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
  }
}

export const badRequest = (errors: Record<string, string[]>, detail: string = E.badRequest) =>
  new HttpError(400, detail, errors);
export const unauthorized = (detail: string = E.unauthorized) => new HttpError(401, detail);
export const forbidden = (detail: string = E.forbidden) => new HttpError(403, detail);
export const notFound = () => new HttpError(404, E.notFound);
export const conflict = (detail: string = E.conflict, errors?: Record<string, string[]>) =>
  new HttpError(409, detail, errors);
export const tooManyRequests = (retryAfterS: number) =>
  new HttpError(429, E.tooManyRequests, undefined, { 'retry-after': String(retryAfterS) });
