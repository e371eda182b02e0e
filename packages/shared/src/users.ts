import { z } from 'zod';
import { METHODS, PAGES } from './permissions';
import { V, boundedJson, emailField, flag, passwordField, phoneField, requiredText } from './validation';
import { LANGUAGE_IDS } from './locales';

export const permissionSchema = z.object({
  page: z.enum(PAGES, { error: V.invalidValue }),
  method: z.enum(METHODS, { error: V.invalidValue }),
});

/** A unit a user is limited to (docs/spec-differences.md: no units = the whole of the user's own company). */
export const UNIT_TYPES = ['company', 'field', 'plant'] as const;
export const userUnitSchema = z.object({
  unit_type: z.enum(UNIT_TYPES, { error: V.invalidValue }),
  unit_id: z.number({ error: V.invalidNumber }).int().positive({ error: V.invalidNumber }),
});
export type UserUnit = z.infer<typeof userUnitSchema>;

const languageId = z.coerce
  .number({ error: V.invalidValue })
  .int()
  .refine((v) => v in LANGUAGE_IDS, { error: V.invalidValue });

/** POST users/login */
export const loginBody = z.object({
  email: emailField(),
  password: z.string({ error: V.required }).min(1, { error: V.required }).max(128, { error: V.tooLong }),
  remember: z.boolean().optional(),
});
export type LoginBody = z.infer<typeof loginBody>;
export const tokenAnswer = z.object({ token: z.string() });
export type TokenAnswer = z.infer<typeof tokenAnswer>;

/** Claims carried by the session JWT. */
export const tokenClaims = z.object({
  /** The user id, as a decimal string (JWT subjects are strings). */
  sub: z.string().regex(/^[1-9][0-9]*$/),
  name: z.string(),
  role_id: z.number().int(),
  permissions: z.array(permissionSchema),
});
export type TokenClaims = z.infer<typeof tokenClaims>;

/** POST Users/resetpasswordrequest */
export const resetRequestBody = z.object({ email: emailField() });
/** POST Users/checkresetpasswordrequest */
export const resetCheckBody = z.object({
  guid: z.string({ error: V.required }).min(1, { error: V.required }).max(200),
});
export const resetCheckAnswer = z.object({ valid: z.literal(true) });
/** POST Users/resetpassword */
export const resetPasswordBody = z.object({
  guid: z.string({ error: V.required }).min(1, { error: V.required }).max(200),
  password: passwordField(),
});
export const okAnswer = z.object({ ok: z.literal(true) });

/** The own current password, asked before the own password or email changes (never stored). */
const currentPasswordField = () => z.string({ error: V.required }).max(128, { error: V.tooLong }).optional();

/** The fields of a user's profile, shared by the profile and the editor. */
const profileFields = z.object({
  name: requiredText(100),
  surname: requiredText(100),
  username: requiredText(100),
  telephone: phoneField(),
  email: emailField(),
});

/**
 * POST Users/profile/{id}: the fields a user edits on their own profile. A new own email needs
 * `current_password` and takes effect only once confirmed through the link mailed to it.
 */
export const profileBody = profileFields.extend({ current_password: currentPasswordField() });
export type ProfileBody = z.infer<typeof profileBody>;

/** POST users/{id} (0 creates). */
export const userUpsertBody = profileFields.extend({
  language_id: languageId.default(1),
  is_active: flag().default(true),
  role_id: z.coerce.number({ error: V.required }).int().positive({ error: V.required }),
  user_units: z.array(userUnitSchema).max(1000).default([]),
  /**
   * The user's company (docs/spec-differences.md: a user belongs to one company; null only for the admin
   * role, which sees all). Only the admin chooses it; anyone else creates users in their own company. Omitted
   * on update keeps the current company.
   */
  company_id: z.coerce
    .number({ error: V.invalidNumber })
    .int({ error: V.invalidNumber })
    .positive({ error: V.invalidNumber })
    .nullish(),
  /** Required when creating; ignored on update (use POST Users/{id}/password). */
  password: passwordField().optional(),
});
export type UserUpsertBody = z.input<typeof userUpsertBody>;

/** POST Users/{id}/password: the own password also needs the current one. */
export const passwordBody = z.object({ password: passwordField(), current_password: currentPasswordField() });
export type PasswordBody = z.infer<typeof passwordBody>;

/** POST users/confirm-email: the token of the link mailed to a new address. */
export const confirmEmailBody = z.object({
  token: z.string({ error: V.required }).min(1, { error: V.required }).max(200, { error: V.tooLong }),
});

/** A user as the API answers it. `roleId` is the read name of role_id (spec §3). */
export const userSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  surname: z.string(),
  username: z.string(),
  telephone: z.string(),
  email: z.string(),
  language_id: z.number().int(),
  is_active: z.boolean(),
  roleId: z.number().int(),
  role_name: z.string(),
  company_id: z.number().int().nullable(),
  user_units: z.array(userUnitSchema),
  permissions: z.array(permissionSchema),
  /** Whether the email was proven to reach the user (docs/security.md, "Accounts and sessions"). */
  email_confirmed: z.boolean().optional(),
  /** A new email waiting for its confirmation link to be opened; null when none. */
  pending_email: z.string().nullable().optional(),
});
export type User = z.infer<typeof userSchema>;
/** GET users/{id}: the user and a fresh token carrying current permissions. */
export const userWithTokenSchema = userSchema.extend({ token: z.string() });
export type UserWithToken = z.infer<typeof userWithTokenSchema>;
export const userListSchema = z.array(userSchema);

/** Largest dashboard layout stored, as JSON text. */
export const DASHBOARD_MAX_BYTES = 256 * 1024;

/** GET/POST users/dashboard: the saved layout, opaque to the server but bounded in depth and size. */
export const dashboardLayoutBody = z.object({ data: boundedJson(DASHBOARD_MAX_BYTES) });
/**
 * `data` is any JSON value, null when nothing is saved. `z.unknown()` already admits null; `.nullable()`
 * on it wrote `nullable` without a `type` into the OpenAPI document, which OpenAPI 3.0 and ajv refuse.
 */
export const dashboardLayoutAnswer = z.object({ data: z.unknown() });
export type DashboardLayout = z.infer<typeof dashboardLayoutAnswer>;

/** GET /api/health */
export const healthAnswer = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.object({ dialect: z.enum(['sqlite', 'postgres']), ok: z.boolean(), latencyMs: z.number() }),
  version: z.string(),
  uptimeS: z.number(),
  /**
   * Several nodes (docs/operations.md): this node, the bus it talks to the others on, and the node holding
   * the jobs lease (alarm engine, scheduled reports, retention, KPI refresh); null when no node holds it.
   */
  cluster: z.object({
    node: z.string(),
    transport: z.enum(['local', 'postgres', 'redis']),
    leaseHolder: z.string().nullable(),
    leaseExpiresAt: z.string().nullable(),
    leaseGeneration: z.number().int().nullable(),
    thisNodeHoldsLease: z.boolean(),
  }),
});
export type Health = z.infer<typeof healthAnswer>;
