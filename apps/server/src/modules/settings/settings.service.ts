import { createHash } from 'node:crypto';
import {
  ADMIN_ERRORS,
  DEFAULT_DEVICE_NETWORKS,
  LOGO_MAX_BYTES,
  V,
  type Co2FactorBody,
  type Co2FactorItem,
  type Co2FactorList,
  type LogoAnswer,
  type PublicSettings,
  type SystemSettings,
  type SystemSettingsInput,
} from '@solar/shared';
import type { AppConfig } from '../../config';
import type { Db } from '../../db/database';
import type { Actor } from '../../lib/actor';
import { recordAudit, auditedSave } from '../audit';
import { badRequest, notFound } from '../../lib/http-errors';
import { type PlantConditionOptions, DEFAULT_PLANT_CONDITION_OPTIONS } from '../alarms';
import type { GridEmissionFactor } from '../kpi';
import { logoTypeOf } from './logo-image';
import {
  deleteCo2Override,
  deleteLogo,
  readCo2Override,
  readCo2Overrides,
  readLogo,
  readLogoMeta,
  readSettings,
  writeCo2Override,
  writeLogo,
  writeSettings,
  type Co2OverrideRow,
  type LogoMeta,
} from './settings.repository';
import {
  co2FactorItem,
  co2FactorList,
  co2OverrideMap,
  logoView,
  publicSettingsView,
  resolveSettings,
  settingsView,
  type ResolvedSettings,
  type SettingsValues,
} from './settings';

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
    device_networks: [...DEFAULT_DEVICE_NETWORKS],
  };
}

/**
 * The system settings (admin panel): read once at start and kept in memory, so that the hot paths that
 * read them (the CSP of every answer, the alarm engine's timer, token signing, the KPIs' CO₂ factor) do no
 * I/O; a save here applies at once, a save on another node within SETTINGS_REFRESH_MS (at once with the
 * cluster bus). Besides the settings rows: the logo's description (its bytes stay in the database) and the
 * admin's CO₂ factors. Built once in buildApp.
 */
export class SettingsService {
  private resolved: ResolvedSettings;
  private logoMeta: LogoMeta | null = null;
  private co2Rows: readonly Co2OverrideRow[] = [];
  private co2Map: Readonly<Record<string, GridEmissionFactor>> = {};
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
    const { db } = this.deps;
    const [stored, logo, co2] = await Promise.all([readSettings(db), readLogoMeta(db), readCo2Overrides(db)]);
    if (generation !== this.generation) return;
    this.resolved = resolveSettings(this.defaults, stored);
    this.logoMeta = logo ?? null;
    this.setCo2(co2);
  }

  private setCo2(rows: readonly Co2OverrideRow[]): void {
    this.co2Rows = rows;
    this.co2Map = co2OverrideMap(rows);
  }

  /** After a save on this node: what it wrote is in force here at once, and the other nodes hear of it. */
  private saved(): void {
    this.generation++;
    for (const listener of this.savedListeners) listener();
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

  /** GET settings/public: the site name, the default language and the logo's URL. */
  publicView(): PublicSettings {
    return publicSettingsView(this.resolved.values, this.logoMeta);
  }

  /**
   * The stored logo's description, read from the database rather than memory: a node serves the logo
   * another node saved a moment ago, and never revalidates a cached copy against a stale ETag.
   */
  storedLogo(): Promise<LogoMeta | undefined> {
    return readLogoMeta(this.deps.db);
  }

  /** The stored logo with its bytes. */
  logoFile(): Promise<(LogoMeta & { data: Buffer }) | undefined> {
    return readLogo(this.deps.db);
  }

  /** The admin's grid emission factors by country, as the KPI engine takes them (co2.ts's precedence). */
  co2Overrides(): Readonly<Record<string, GridEmissionFactor>> {
    return this.co2Map;
  }

  /** GET admin/co2-factors (the route admits the administrator alone: access.admin). */
  co2Factors(): Co2FactorList {
    return co2FactorList(this.co2Rows);
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

  /** The networks devices and cameras may live in; the same array until the next save or load. */
  deviceNetworks(): readonly string[] {
    return this.resolved.values.device_networks;
  }

  /** Lifetimes of newly signed session tokens, in seconds. */
  tokenLifetimesS(): { session: number; remember: number } {
    const v = this.resolved.values;
    return { session: v.session_lifetime_h * 3600, remember: v.remember_lifetime_days * 86_400 };
  }

  /** Saves every setting (admin only), audited with the before and after view (no password in either). */
  async save(actor: Actor, input: SystemSettingsInput): Promise<SystemSettings> {
    const { smtp_password, device_networks, ...values } = input;
    const stored: Record<string, unknown> = { ...values };
    // Absent keeps the stored list (a client that predates the setting).
    if (device_networks !== undefined) stored.device_networks = device_networks;
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
    this.resolved = after;
    this.saved();
    return view;
  }

  /**
   * Stores the site logo (administrator only): at most LOGO_MAX_BYTES, and a PNG, JPEG or WebP by its
   * bytes, whatever the client says it is. Audited with the logo's description, never its bytes.
   */
  async saveLogo(actor: Actor, contentBase64: string): Promise<LogoAnswer> {
    const data = Buffer.from(contentBase64, 'base64');
    if (data.length > LOGO_MAX_BYTES)
      throw badRequest({ content_base64: [V.fileTooLarge] }, ADMIN_ERRORS.logoTooLarge);
    const contentType = logoTypeOf(data);
    if (contentType === null) throw badRequest({ content_base64: [V.imageType] }, ADMIN_ERRORS.logoType);
    const etag = createHash('sha256').update(data).digest('base64url').slice(0, 27);
    const after = await this.deps.db.transaction().execute(async (trx) => {
      const now = this.deps.now();
      const before = await readLogoMeta(trx);
      await writeLogo(trx, { content_type: contentType, data, etag }, actor.userId, now);
      const stored = (await readLogoMeta(trx))!;
      await recordAudit(trx, {
        userId: actor.userId,
        action: before ? 'update' : 'create',
        entity: 'site_logo',
        entityId: 1,
        before: before && logoView(before),
        after: logoView(stored),
        ip: actor.ip,
        at: now,
      });
      return stored;
    });
    this.logoMeta = after;
    this.saved();
    return logoView(after);
  }

  /** Removes the logo (the built-in mark shows again); 404 when none is stored. */
  async removeLogo(actor: Actor): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const before = await readLogoMeta(trx);
      if (!before) throw notFound();
      await deleteLogo(trx);
      await recordAudit(trx, {
        userId: actor.userId,
        action: 'delete',
        entity: 'site_logo',
        entityId: 1,
        before: logoView(before),
        ip: actor.ip,
        at: this.deps.now(),
      });
    });
    this.logoMeta = null;
    this.saved();
  }

  /** Sets a country's CO₂ factor (administrator only); the KPIs use it from their next answer. */
  async saveCo2Factor(actor: Actor, country: string, body: Co2FactorBody): Promise<Co2FactorItem> {
    const rows = await this.deps.db.transaction().execute(async (trx) => {
      const now = this.deps.now();
      const before = await readCo2Override(trx, country);
      await writeCo2Override(trx, { country, ...body }, actor.userId, now);
      const after = await readCo2Override(trx, country);
      await recordAudit(trx, {
        userId: actor.userId,
        action: before ? 'update' : 'create',
        entity: 'co2_factor',
        entityId: null,
        before,
        after,
        ip: actor.ip,
        at: now,
      });
      return readCo2Overrides(trx);
    });
    this.setCo2(rows);
    this.saved();
    return co2FactorItem(
      country,
      rows.find((r) => r.country === country),
    );
  }

  /** Removes a country's override: the built-in factor (or DEFAULT) applies again; 404 without one. */
  async removeCo2Factor(actor: Actor, country: string): Promise<void> {
    const rows = await this.deps.db.transaction().execute(async (trx) => {
      const before = await readCo2Override(trx, country);
      if (!before) throw notFound();
      await deleteCo2Override(trx, country);
      await recordAudit(trx, {
        userId: actor.userId,
        action: 'delete',
        entity: 'co2_factor',
        entityId: null,
        before,
        ip: actor.ip,
        at: this.deps.now(),
      });
      return readCo2Overrides(trx);
    });
    this.setCo2(rows);
    this.saved();
  }
}
