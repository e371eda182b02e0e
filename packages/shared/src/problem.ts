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
  /** The recipient's mails of the day are used up (docs/security.md, "Mail and schedules"): 429. */
  mailLimitReached: 'errors.mailLimitReached',
  /** SQLite is locked by another process (a backup, an external writer) beyond the short wait (503). */
  databaseBusy: 'errors.databaseBusy',
  /** PostgreSQL cannot be reached (stopped, restarting, network): 503 until it is back. */
  databaseUnavailable: 'errors.databaseUnavailable',
  resetLinkInvalid: 'errors.resetLinkInvalid',
  emailTaken: 'errors.emailTaken',
  usernameTaken: 'errors.usernameTaken',
  internal: 'errors.internal',
  unavailable: 'errors.unavailable',
  roleNotAllowed: 'errors.roleNotAllowed',
  /** The user reaches plants, fields or companies the caller does not: they may not manage them (403). */
  userOutOfScope: 'errors.userOutOfScope',
  /** The own current password, asked before the own password or email changes, is wrong (400). */
  currentPasswordWrong: 'errors.currentPasswordWrong',
  /** An email confirmation link that is unknown, used or expired (400). */
  emailLinkInvalid: 'errors.emailLinkInvalid',
  /** The own email changes on the profile only, where it is confirmed by mail first (400). */
  ownEmailViaProfile: 'errors.ownEmailViaProfile',
  inactiveUser: 'errors.inactiveUser',
  hasChildren: 'errors.hasChildren',
  roleInUse: 'errors.roleInUse',
  adminRoleLocked: 'errors.adminRoleLocked',
  duplicate: 'errors.duplicate',
  /** The device refused the connection or broke it (502). */
  deviceUnreachable: 'errors.deviceUnreachable',
  /** The device did not answer in time (504). */
  deviceTimeout: 'errors.deviceTimeout',
  /** The device answers Modbus but shows no SunSpec marker (422). */
  notSunSpec: 'errors.notSunSpec',
  /** A Modbus TCP call on a device of another protocol, or without an address (409). */
  notModbusTcp: 'errors.notModbusTcp',
  /** A register-map template on a device that is not read over Modbus (409). */
  notModbus: 'errors.notModbus',
  /** A register-map template made for another type of device, e.g. an inverter's on a meter (409). */
  templateDeviceType: 'errors.templateDeviceType',
  /** A company template whose id (the file's `id`) is a shipped template's or another of the company's (409). */
  templateIdTaken: 'errors.templateIdTaken',
  /** X-Api-Key missing from the store, revoked, or its device/plant deleted (401). */
  invalidApiKey: 'errors.invalidApiKey',
  /** resolution=raw over more than one day (400). */
  rawRangeTooLong: 'errors.rawRangeTooLong',
  /** A telemetry query or export that would answer more than a million points (400). */
  tooManyPoints: 'errors.tooManyPoints',
  /** The alarm already has a fault (one fault per alarm; 409). */
  faultExists: 'errors.faultExists',
  /** A fault status change the workflow does not allow, e.g. from closed to resolved (409). */
  faultTransition: 'errors.faultTransition',
  /** The alarm was already approved or rejected (409). */
  alarmDecided: 'errors.alarmDecided',
  /** The camera could not be reached, did not answer in time or answered with an error status (502). */
  cameraUnreachable: 'errors.cameraUnreachable',
  /** The camera answered with a redirect, a type other than JPEG/PNG (or MJPEG) or too many bytes (502). */
  cameraInvalidAnswer: 'errors.cameraInvalidAnswer',
  /** The camera has no http(s) snapshot or stream address to proxy (409). */
  cameraNotConfigured: 'errors.cameraNotConfigured',
  /** A report whose plants × days exceed what one request may read (400). */
  reportTooLarge: 'errors.reportTooLarge',
  /** The caller already has as many report or export files in the making as one user may (429, Retry-After). */
  tooManyFileBuilds: 'errors.tooManyFileBuilds',
  /** A report or export file whose build ran its thread out of the heap a build may use (500). */
  fileTooLargeToBuild: 'errors.fileTooLargeToBuild',
  /** A budget import file with a bad row; `errors` names each row's line and column (400). */
  budgetImportInvalid: 'errors.budgetImportInvalid',
  /** Imports already being read, the caller's own or the server's limit (429, with Retry-After). */
  budgetImportBusy: 'errors.budgetImportBusy',
} as const;
