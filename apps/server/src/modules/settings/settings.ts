import {
  CO2_DEFAULT_COUNTRY,
  systemSettingsFields,
  type Co2FactorItem,
  type Co2FactorList,
  type LogoAnswer,
  type LogoType,
  type PublicSettings,
  type SystemSettings,
} from '@solar/shared';
import { GRID_EMISSION_FACTORS, type GridEmissionFactor } from '../kpi';
import type { Co2OverrideRow, LogoMeta, StoredSetting } from './settings.repository';

/** The settings in force, password included (never answered; SettingsService.view leaves it out). */
export interface SettingsValues {
  site_name: string | null;
  default_language: SystemSettings['default_language'];
  map_tile_url: string;
  map_tile_attribution: string;
  raw_retention_days: number;
  alarm_digest_interval_s: number;
  session_lifetime_h: number;
  remember_lifetime_days: number;
  irradiance_threshold_wm2: number;
  no_production_delay_min: number;
  performance_threshold_pct: number;
  performance_delay_min: number;
  smtp_host: string | null;
  smtp_port: number;
  smtp_secure: boolean;
  smtp_user: string | null;
  smtp_password: string | null;
  mail_from: string;
  /** CIDRs devices and cameras may live in (lib/device-networks.ts). */
  device_networks: string[];
}

/** The settings as stored rows over the defaults, and when they were last saved. */
export interface ResolvedSettings {
  values: SettingsValues;
  updatedAt: number | null;
}

const isKey = (key: string): key is keyof SettingsValues =>
  key === 'smtp_password' || Object.hasOwn(systemSettingsFields, key);

/**
 * Stored rows over the defaults. A row whose value the current schema refuses (bounds tightened by a later
 * build, a hand edit) keeps the default for that setting alone rather than stopping the server.
 */
export function resolveSettings(defaults: SettingsValues, rows: readonly StoredSetting[]): ResolvedSettings {
  const values: SettingsValues = { ...defaults };
  let updatedAt: number | null = null;
  for (const row of rows) {
    if (!isKey(row.key)) continue;
    updatedAt = Math.max(updatedAt ?? 0, Number(row.updated_at));
    let parsed: unknown;
    try {
      parsed = JSON.parse(row.value);
    } catch {
      continue;
    }
    if (row.key === 'smtp_password') {
      values.smtp_password = typeof parsed === 'string' && parsed !== '' ? parsed : null;
      continue;
    }
    const field = systemSettingsFields[row.key].safeParse(parsed);
    if (field.success) (values as unknown as Record<string, unknown>)[row.key] = field.data;
  }
  return { values, updatedAt };
}

/** What GET admin/settings answers: everything but the SMTP password, which is only said to be set. */
export function settingsView({ values, updatedAt }: ResolvedSettings): SystemSettings {
  const { smtp_password, ...rest } = values;
  return {
    ...rest,
    smtp_password_set: smtp_password !== null,
    updated_at: updatedAt === null ? null : new Date(updatedAt).toISOString(),
  };
}

/** The public logo route, versioned by the logo's hash: a new logo is a new URL, an unchanged one is cached. */
export const logoUrlOf = (logo: LogoMeta) => `/api/settings/logo?v=${logo.etag}`;

export const publicSettingsView = (values: SettingsValues, logo: LogoMeta | null): PublicSettings => ({
  site_name: values.site_name,
  default_language: values.default_language,
  logo_url: logo ? logoUrlOf(logo) : null,
});

/** The logo as POST admin/settings/logo answers it, and as the audit log records it (no bytes). */
export const logoView = (logo: LogoMeta): LogoAnswer => ({
  logo_url: logoUrlOf(logo),
  content_type: logo.content_type as LogoType,
  size_bytes: logo.size_bytes,
  updated_at: new Date(logo.updated_at).toISOString(),
});

/** The overrides as the KPI engine takes them (emissionFactorFor). */
export function co2OverrideMap(rows: readonly Co2OverrideRow[]): Record<string, GridEmissionFactor> {
  return Object.fromEntries(
    rows.map((r) => [r.country, { kgPerKwh: r.kg_per_kwh, year: r.year, source: r.source }]),
  );
}

const factorView = (f: GridEmissionFactor) => ({ kg_per_kwh: f.kgPerKwh, year: f.year, source: f.source });

/** One country's factor in force, the built-in one beside it. */
export function co2FactorItem(country: string, override: Co2OverrideRow | undefined): Co2FactorItem {
  const builtIn = Object.hasOwn(GRID_EMISSION_FACTORS, country) ? GRID_EMISSION_FACTORS[country]! : null;
  const inForce = override
    ? { kg_per_kwh: override.kg_per_kwh, year: override.year, source: override.source }
    : factorView(builtIn!);
  return {
    country,
    ...inForce,
    origin: override ? 'override' : 'built_in',
    built_in: builtIn && factorView(builtIn),
    updated_at: override ? new Date(override.updated_at).toISOString() : null,
  };
}

/** GET admin/co2-factors: the table's countries and the admin's, alphabetical, DEFAULT last. */
export function co2FactorList(rows: readonly Co2OverrideRow[]): Co2FactorList {
  const overrides = new Map(rows.map((r) => [r.country, r]));
  const countries = [...new Set([...Object.keys(GRID_EMISSION_FACTORS), ...overrides.keys()])].sort(
    (a, b) => Number(a === CO2_DEFAULT_COUNTRY) - Number(b === CO2_DEFAULT_COUNTRY) || a.localeCompare(b),
  );
  return { items: countries.map((c) => co2FactorItem(c, overrides.get(c))) };
}
