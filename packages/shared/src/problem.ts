import { z } from 'zod';

/**
 * Error answer (RFC 9457 problem details). `title` and `detail` are i18n keys under `errors.` where the
 * client should show them; `errors` maps a field path to its validation message keys.
 */
export const problemSchema = z.object({
  status: z.number().int(),
  title: z.string(),
  detail: z.string().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type Problem = z.infer<typeof problemSchema>;

/** Error message keys the server answers with in `detail`. */
export const E = {
  badRequest: 'errors.badRequest',
  unauthorized: 'errors.unauthorized',
  invalidCredentials: 'errors.invalidCredentials',
  forbidden: 'errors.forbidden',
  xsrf: 'errors.xsrf',
  notFound: 'errors.notFound',
  conflict: 'errors.conflict',
  tooManyRequests: 'errors.tooManyRequests',
  resetLinkInvalid: 'errors.resetLinkInvalid',
  emailTaken: 'errors.emailTaken',
  usernameTaken: 'errors.usernameTaken',
  internal: 'errors.internal',
  unavailable: 'errors.unavailable',
  roleNotAllowed: 'errors.roleNotAllowed',
  inactiveUser: 'errors.inactiveUser',
  hasChildren: 'errors.hasChildren',
  roleInUse: 'errors.roleInUse',
  adminRoleLocked: 'errors.adminRoleLocked',
  duplicate: 'errors.duplicate',
} as const;
