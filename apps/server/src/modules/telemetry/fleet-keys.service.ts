import type { AdminIngestKeyList } from '@solar/shared';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { notFound } from '../../lib/http-errors';
import { scopeOf } from '../../lib/scope';
import { recordAudit } from '../audit';
import * as repo from './fleet-keys.repository';

const iso = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/**
 * The fleet's live ingest keys (admin panel), scoped: a company user holding the admin_panel page sees and
 * revokes their own company's keys.
 */
export class FleetKeysService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now'>) {}

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
}
