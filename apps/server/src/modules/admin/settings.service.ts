import type { SystemSettings, SystemSettingsInput } from '@solar/shared';
import type { AppConfig } from '../../config';
import type { Db } from '../../db/database';
import type { Actor } from '../../lib/actor';
import { auditedSave } from '../../lib/audited-write';
import { forbidden } from '../../lib/http-errors';
import type { PlantConditionOptions } from '../alarms/engine/plant-conditions';
import { DEFAULT_PLANT_CONDITION_OPTIONS } from '../alarms/engine/plant-conditions';
import { readSettings, writeSettings } from './settings.repository';
import { resolveSettings, settingsView, type ResolvedSettings, type SettingsValues } from './settings';

const MINUTE_MS = 60_000;
/** Another node's save reaches this one within this long (one small select). */
export const SETTINGS_REFRESH_MS = 15_000;

/** The defaults: what the environment configures, else the built-in values the options had before. */
export function defaultSettings(config: AppConfig): SettingsValues {
  const c = DEFAULT_PLANT_CONDITION_OPTIONS;
  return {
    site_name: null,
    default_language: 'tr_TR',
    map_tile_url: config.map.tileUrl,
    map_tile_attribution: config.map.tileAttribution,
    raw_retention_days: config.telemetry.rawRetentionDays,
    alarm_digest_interval_s: 30,
    session_lifetime_h: 8,
    remember_lifetime_days: 30,
    irradiance_threshold_wm2: c.irradianceThresholdWm2,
    no_production_delay_min: Math.round(c.noProductionDelayMs / MINUTE_MS),
    performance_threshold_pct: c.performanceThresholdPct,
    performance_delay_min: Math.round(c.performanceDelayMs / MINUTE_MS),
    smtp_host: null,
    smtp_port: 587,
    smtp_secure: false,
    smtp_user: null,
    smtp_password: null,
    mail_from: config.mailFrom,
  };
}

/**
 * The system settings (admin panel): read once at start and kept in memory, so that the hot paths that
 * read them (the CSP of every answer, the alarm engine's timer, token signing) do no I/O; a save here
 * applies at once, a save on another node within SETTINGS_REFRESH_MS. Built once in buildApp.
 */
export class SettingsService {
  private resolved: ResolvedSettings;
  private timer: NodeJS.Timeout | undefined;
  /** Bumped by every save, so that a refresh that read the database before the save cannot undo it. */
  private generation = 0;
  private readonly savedListeners = new Set<() => void>();

  constructor(
    private readonly deps: { db: Db; now(): number },
    private readonly defaults: SettingsValues,
  ) {
    this.resolved = { values: defaults, updatedAt: null };
  }

  /** Reads the stored settings (start, and the periodic refresh). */
  async load(): Promise<void> {
    const generation = this.generation;
    const stored = await readSettings(this.deps.db);
    if (generation === this.generation) this.resolved = resolveSettings(this.defaults, stored);
  }

  /** Refreshes from the database every SETTINGS_REFRESH_MS (the timer does not keep the process alive). */
  start(everyMs = SETTINGS_REFRESH_MS): void {
    this.timer ??= setInterval(() => void this.load().catch(() => undefined), everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Called after every save (the cluster bus tells the other nodes to load at once). */
  onSaved(listener: () => void): () => void {
    this.savedListeners.add(listener);
    return () => this.savedListeners.delete(listener);
  }

  /** The settings in force now. */
  current(): Readonly<SettingsValues> {
    return this.resolved.values;
  }

  view(): SystemSettings {
    return settingsView(this.resolved);
  }

  /** The alarm engine's plant-condition thresholds, in the engine's units. */
  alarmConditions(): PlantConditionOptions {
    const v = this.resolved.values;
    return {
      irradianceThresholdWm2: v.irradiance_threshold_wm2,
      noProductionDelayMs: v.no_production_delay_min * MINUTE_MS,
      performanceThresholdPct: v.performance_threshold_pct,
      performanceDelayMs: v.performance_delay_min * MINUTE_MS,
    };
  }

  /** Lifetimes of newly signed session tokens, in seconds. */
  tokenLifetimesS(): { session: number; remember: number } {
    const v = this.resolved.values;
    return { session: v.session_lifetime_h * 3600, remember: v.remember_lifetime_days * 86_400 };
  }

  /** Saves every setting (admin only), audited with the before and after view (no password in either). */
  async save(actor: Actor, input: SystemSettingsInput): Promise<SystemSettings> {
    if (!actor.isAdmin) throw forbidden();
    const { smtp_password, ...values } = input;
    const stored: Record<string, unknown> = { ...values };
    // Absent or null keeps the stored password; an empty string removes it.
    if (smtp_password !== undefined && smtp_password !== null) stored.smtp_password = smtp_password;
    let after: ResolvedSettings = this.resolved;
    const view = await auditedSave(this.deps, actor, 1, {
      entity: 'system_settings',
      find: async (trx) => {
        after = resolveSettings(this.defaults, await readSettings(trx));
        return settingsView(after);
      },
      insert: () => Promise.resolve(1),
      update: (trx, _id, _before, now) => writeSettings(trx, stored, actor.userId, now),
    });
    this.generation++;
    this.resolved = after;
    for (const listener of this.savedListeners) listener();
    return view;
  }
}
