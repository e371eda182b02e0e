import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { UserUnit } from '@solar/shared';
import type { Db } from '../db/database';
import type { Database } from '../db/schema';

/**
 * What part of the organisation a caller reaches (docs/spec-differences.md, permissions): the admin
 * everything; anyone else their own company, narrowed by their units (user_units) when they have any. A unit
 * outside the own company reaches nothing. Repositories apply a scope inside their queries, as a sub-select
 * of reachable ids.
 */
export type Scope =
  | { all: true }
  | {
      all: false;
      /** The caller's company; null reaches nothing. */
      companyId: number | null;
      /** No units, or a company unit for the own company: the whole company. */
      wholeCompany: boolean;
      fieldIds: number[];
      plantIds: number[];
    };

export interface ScopeSubject {
  isAdmin: boolean;
  companyId: number | null;
  units: readonly UserUnit[];
}

/** Turns a caller into the scope of what it may see and change. */
export function scopeOf(subject: ScopeSubject): Scope {
  if (subject.isAdmin) return { all: true };
  const { companyId, units } = subject;
  const ids = (type: UserUnit['unit_type']) =>
    units.filter((u) => u.unit_type === type).map((u) => u.unit_id);
  return {
    all: false,
    companyId,
    wholeCompany:
      companyId !== null &&
      (units.length === 0 || units.some((u) => u.unit_type === 'company' && u.unit_id === companyId)),
    fieldIds: ids('field'),
    plantIds: ids('plant'),
  };
}

/**
 * May the scope create and delete fields of `companyId`? Only with the whole company reachable:
 * `hidden` for another company (answer 404), `narrowed` for the own company seen through units (403).
 */
export function companyReach(scope: Scope, companyId: number): 'whole' | 'narrowed' | 'hidden' {
  if (scope.all) return 'whole';
  if (scope.companyId !== companyId) return 'hidden';
  return scope.wholeCompany ? 'whole' : 'narrowed';
}

type IdQuery<T extends keyof Database> = SelectQueryBuilder<Database, T, { id: number }>;
const nothing = sql<SqlBool>`1 = 0`;

/**
 * Sub-selects of the ids a limited scope reaches, to use as `where(x.id, 'in', …)`. Not meant for the
 * `all` scope: callers skip the condition then.
 */
export const reachable = {
  /** The own company: readable by everyone in it, whatever their units. */
  companies(db: Db, scope: Scope & { all: false }): IdQuery<'companies'> {
    const q = db.selectFrom('companies').select('companies.id');
    return scope.companyId === null ? q.where(nothing) : q.where('companies.id', '=', scope.companyId);
  },

  fields(db: Db, scope: Scope & { all: false }): IdQuery<'fields'> {
    const q = db.selectFrom('fields').select('fields.id');
    if (scope.companyId === null) return q.where(nothing);
    const inCompany = q.where('fields.company_id', '=', scope.companyId);
    if (scope.wholeCompany) return inCompany;
    return scope.fieldIds.length
      ? inCompany.where('fields.id', 'in', scope.fieldIds)
      : inCompany.where(nothing);
  },

  plants(db: Db, scope: Scope & { all: false }): IdQuery<'plants' | 'fields'> {
    const q = db.selectFrom('plants').innerJoin('fields', 'fields.id', 'plants.field_id').select('plants.id');
    if (scope.companyId === null) return q.where(nothing);
    const inCompany = q.where('fields.company_id', '=', scope.companyId);
    if (scope.wholeCompany) return inCompany;
    return inCompany.where((eb) =>
      eb.or([
        ...(scope.fieldIds.length ? [eb('plants.field_id', 'in', scope.fieldIds)] : []),
        ...(scope.plantIds.length ? [eb('plants.id', 'in', scope.plantIds)] : []),
        nothing,
      ]),
    );
  },

  devices(db: Db, scope: Scope & { all: false }): IdQuery<'devices'> {
    return db
      .selectFrom('devices')
      .select('devices.id')
      .where('devices.plant_id', 'in', reachable.plants(db, scope));
  },
};
