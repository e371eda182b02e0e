import { z } from 'zod';
import { listAnswer, listQueryBase, sortParam, timestamps } from './common';
import { permissionSchema } from './users';
import { PAGES, METHODS } from './permissions';
import { optionalText, requiredText } from './validation';

/** POST roles/{id} (0 creates; admin only): a set of (page, method) pairs (docs/spec-differences.md). */
export const roleBody = z.object({
  name: requiredText(100),
  description: optionalText(500),
  permissions: z
    .array(permissionSchema)
    .max(PAGES.length * METHODS.length)
    .default([])
    // The same pair twice means once.
    .transform((list) => [...new Map(list.map((p) => [`${p.page}:${p.method}`, p])).values()]),
});
export type RoleBody = z.input<typeof roleBody>;

export const roleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  /** The administrator role holds every permission and sees every company. */
  is_admin: z.boolean(),
  permissions: z.array(permissionSchema),
  /** Users holding the role: a role in use cannot be deleted. */
  user_count: z.number().int(),
  ...timestamps,
});
export type Role = z.infer<typeof roleSchema>;

export const ROLE_SORTS = ['id', 'name', 'created_at', 'updated_at'] as const;
/** GET roles */
export const roleListQuery = listQueryBase.extend({ sort: sortParam(ROLE_SORTS, 'name') });
export type RoleListQuery = z.input<typeof roleListQuery>;
export const roleList = listAnswer(roleSchema);
export type RoleList = z.infer<typeof roleList>;
