import { translate } from '@solar/i18n';
import {
  ADMIN_ERRORS,
  E,
  INGEST_COUNT_REASONS,
  POINT_REJECTIONS,
  localeOfLanguageId,
  type AdminIngestKeyList,
  type CollectionHealthAnswer,
  type CollectionHealthItem,
  type IngestCountReason,
  type TestMailAnswer,
} from '@solar/shared';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { recordAudit } from '../../lib/audit';
import { HttpError, forbidden, notFound } from '../../lib/http-errors';
import { MailHeldBack } from '../../lib/mail-budget';
import { scopeOf } from '../../lib/scope';
import { communicationState } from '../kpi/engine';
import * as repo from './admin.repository';

const HOUR_MS = 3_600_000;
const REFUSALS: ReadonlySet<string> = new Set(POINT_REJECTIONS);
const iso = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** Throws 403 unless the actor is the administrator: settings, backup and the log are the whole system's. */
export function adminOnly(actor: Actor): void {
  if (!actor.isAdmin) throw forbidden();
}

/**
 * The admin panel's reads and actions besides the settings: the fleet's data collection health and ingest
 * keys (scoped: a company user holding the admin_panel page sees their own company), and the test mail.
 */
export class AdminService {
  constructor(
    private readonly ctx: Pick<AppContext, 'db' | 'now' | 'ingestCounts' | 'mailer' | 'settings' | 'config'>,
  ) {}

  /** Per device: last seen, points in the last hour, communication, refusals by reason; problems first. */
  async collectionHealth(actor: Actor): Promise<CollectionHealthAnswer> {
    const { db } = this.ctx;
    const now = this.ctx.now();
    const devices = await repo.readFleetDevices(db, scopeOf(actor));
    const ids = devices.map((d) => d.device_id);
    // What the collectors counted in the last few seconds is in memory: write it first, so none is missing.
    await this.ctx.ingestCounts.flush();
    const [points, counts] = await Promise.all([
      repo.countPointsSince(db, ids, now - HOUR_MS),
      repo.readCountsOf(db, ids),
    ]);
    const countsOf = new Map<number, typeof counts>();
    for (const c of counts) countsOf.set(c.device_id, [...(countsOf.get(c.device_id) ?? []), c]);
    const order = (reason: string) => INGEST_COUNT_REASONS.indexOf(reason as IngestCountReason);
    const items: CollectionHealthItem[] = devices.map((d) => {
      const lastMs = d.last_ts === null ? null : Number(d.last_ts);
      const communication = communicationState(lastMs, now, d.poll_interval_s);
      const rejected = (countsOf.get(d.device_id) ?? [])
        .filter((c) => order(c.reason) >= 0)
        .sort((a, b) => order(a.reason) - order(b.reason))
        .map((c) => ({
          reason: c.reason as IngestCountReason,
          count: Number(c.count),
          last_at: new Date(Number(c.last_at)).toISOString(),
        }));
      const rejectedTotal = rejected.filter((r) => REFUSALS.has(r.reason)).reduce((n, r) => n + r.count, 0);
      const isActive = d.is_active === 1;
      return {
        device_id: d.device_id,
        device_name: d.device_name,
        device_type: d.device_type,
        protocol: d.protocol,
        is_active: isActive,
        plant_id: d.plant_id,
        plant_name: d.plant_name,
        last_seen_at: iso(lastMs),
        points_last_hour: points.get(d.device_id) ?? 0,
        communication,
        rejected,
        rejected_total: rejectedTotal,
        // An inactive device is expected to be silent: only its refusals are a problem.
        has_problem: (isActive && communication === 'lost') || rejectedTotal > 0,
      };
    });
    // Problems first, then the list's own order (plant, device); the sort is stable.
    items.sort((a, b) => Number(b.has_problem) - Number(a.has_problem));
    return { generated_at: new Date(now).toISOString(), items };
  }

  async ingestKeys(actor: Actor): Promise<AdminIngestKeyList> {
    const rows = await repo.readLiveKeys(this.ctx.db, scopeOf(actor));
    return {
      items: rows.map((r) => ({
        id: r.id,
        prefix: r.prefix,
        owner: r.device_id === null ? 'plant' : 'device',
        device_id: r.device_id,
        device_name: r.device_name,
        plant_id: r.plant_id,
        plant_name: r.plant_name,
        created_at: iso(r.created_at)!,
        last_used_at: iso(r.last_used_at),
      })),
    };
  }

  /** Revokes a live key the actor reaches (404 otherwise), audited as the device and plant pages do. */
  async revokeKey(actor: Actor, id: number): Promise<void> {
    const now = this.ctx.now();
    await this.ctx.db.transaction().execute(async (trx) => {
      const key = await repo.findLiveKey(trx, scopeOf(actor), id);
      if (!key || !(await repo.revokeKey(trx, id, now))) throw notFound();
      await recordAudit(trx, {
        userId: actor.userId,
        action: 'revoke',
        entity: key.device_id === null ? 'plant_ingest_key' : 'device_ingest_key',
        entityId: key.device_id ?? key.key_plant_id,
        before: { prefix: key.prefix },
        ip: actor.ip,
        at: now,
      });
    });
  }

  /** Sends a test message through the mail settings in force, in the admin's language. */
  async testMail(actor: Actor, to: string | null | undefined): Promise<TestMailAnswer> {
    adminOnly(actor);
    const me = await this.ctx.db
      .selectFrom('users')
      .select(['email', 'language_id'])
      .where('id', '=', actor.userId)
      .executeTakeFirst();
    if (!me) throw notFound();
    const locale = localeOfLanguageId(me.language_id);
    const recipient = to ?? me.email;
    try {
      await this.ctx.mailer.send({
        to: recipient,
        subject: translate(locale, 'mail.testSubject'),
        text: translate(locale, 'mail.testBody', { url: this.ctx.config.publicUrl }),
      });
    } catch (error) {
      if (error instanceof MailHeldBack) throw new HttpError(429, E.mailLimitReached);
      // The admin is testing exactly this: say the server failed, not that the console did.
      throw new HttpError(502, ADMIN_ERRORS.mailFailed, {
        smtp_host: [error instanceof Error ? error.message.slice(0, 200) : String(error)],
      });
    }
    const smtp = this.ctx.settings.current().smtp_host !== null || this.ctx.config.smtpUrl !== undefined;
    return { sent_to: recipient, transport: smtp ? 'smtp' : 'outbox' };
  }
}
