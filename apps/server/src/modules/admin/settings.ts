import { systemSettingsFields, type PublicSettings, type SystemSettings } from '@solar/shared';
import type { StoredSetting } from './settings.repository';

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

export const publicSettingsView = (values: SettingsValues): PublicSettings => ({
  site_name: values.site_name,
  default_language: values.default_language,
});
