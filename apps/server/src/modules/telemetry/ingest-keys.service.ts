import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { recordAudit } from '../audit';
import { notFound } from '../../lib/http-errors';
import { scopeOf } from '../../lib/scope';
import type { IngestPrincipal } from '../../plugins/auth';
import * as keys from './ingest-keys.repository';
import * as repo from './telemetry.repository';

/** Keys look like `sk_` and 43 base64url characters (256 random bits); the first 11 characters are shown later. */
const KEY_PREFIX = 'sk_';
const PREFIX_LENGTH = 11;
/** last_used_at is written at most this often per key, so a busy key does not write on every batch. */
const TOUCH_EVERY_MS = 60_000;

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

/**
 * Ingest keys of devices and plants: created or rotated (the old one revoked) with the key answered once,
 * listed by prefix, revoked. Only the SHA-256 of a key is stored and the audit log sees only the prefix.
 */
export class IngestKeysService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now'>) {}

  private async ensureReachable(actor: Actor, owner: keys.KeyOwner): Promise<void> {
    const scope = scopeOf(actor);
    const ok =
      owner.device_id !== undefined
        ? await repo.deviceReachable(this.ctx.db, scope, owner.device_id)
        : !!(await repo.plantOf(this.ctx.db, scope, owner.plant_id));
    if (!ok) throw notFound();
  }

  private entity = (owner: keys.KeyOwner) =>
    owner.device_id !== undefined
      ? { entity: 'device_ingest_key', entityId: owner.device_id }
      : { entity: 'plant_ingest_key', entityId: owner.plant_id };

  async create(actor: Actor, owner: keys.KeyOwner) {
    await this.ensureReachable(actor, owner);
    const key = KEY_PREFIX + randomBytes(32).toString('base64url');
    const prefix = key.slice(0, PREFIX_LENGTH);
    const now = this.ctx.now();
    await this.ctx.db.transaction().execute(async (trx) => {
      const before = await keys.findLiveKey(trx, owner);
      await keys.revokeKeys(trx, owner, now);
      await keys.insertKey(trx, owner, {
        key_hash: hashKey(key),
        prefix,
        created_at: now,
        created_by: actor.userId,
      });
      await recordAudit(trx, {
        userId: actor.userId,
        action: before ? 'rotate' : 'create',
        ...this.entity(owner),
        before: before && { prefix: before.prefix },
        after: { prefix },
        ip: actor.ip,
        at: now,
      });
    });
    return { key, prefix, created_at: new Date(now).toISOString() };
  }

  async info(actor: Actor, owner: keys.KeyOwner) {
    await this.ensureReachable(actor, owner);
    const live = await keys.findLiveKey(this.ctx.db, owner);
    return {
      prefix: live?.prefix ?? null,
      created_at: live ? new Date(Number(live.created_at)).toISOString() : null,
    };
  }

  /** Revokes the live key; 404 when there is none (or the owner is out of reach). */
  async revoke(actor: Actor, owner: keys.KeyOwner): Promise<void> {
    await this.ensureReachable(actor, owner);
    const now = this.ctx.now();
    await this.ctx.db.transaction().execute(async (trx) => {
      const before = await keys.findLiveKey(trx, owner);
      if (!before) throw notFound();
      await keys.revokeKeys(trx, owner, now);
      await recordAudit(trx, {
        userId: actor.userId,
        action: 'revoke',
        ...this.entity(owner),
        before: { prefix: before.prefix },
        ip: actor.ip,
        at: now,
      });
    });
  }

  /** The owner of a live key whose device or plant still exists, or null. */
  async verify(key: string): Promise<IngestPrincipal | null> {
    if (!key.startsWith(KEY_PREFIX) || key.length > 100) return null;
    const row = await keys.findKeyByHash(this.ctx.db, hashKey(key));
    if (!row || (row.device_exists === null && row.plant_exists === null)) return null;
    const now = this.ctx.now();
    if (row.last_used_at === null || now - Number(row.last_used_at) > TOUCH_EVERY_MS) {
      await keys.touchKey(this.ctx.db, row.id, now);
    }
    return { keyId: row.id, deviceId: row.device_id, plantId: row.plant_id };
  }

  /**
   * The live key of a plant, as its owner and its SHA-256: an edge agent signs its MQTT batches with that
   * hash (packages/shared/src/edge.ts), since the key itself never goes over MQTT. Undefined without one.
   */
  async plantKey(
    plantId: number,
  ): Promise<{ principal: IngestPrincipal; keyHash: string; lastUsedAt: number | null } | undefined> {
    const row = await keys.findLivePlantKeyHash(this.ctx.db, plantId);
    if (!row) return undefined;
    return {
      principal: { keyId: row.id, deviceId: null, plantId },
      keyHash: row.key_hash,
      lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    };
  }

  /** A key of `plantKey` signed a batch: its last use is written, at most once a minute as `verify` does. */
  async markUsed(key: { principal: IngestPrincipal; lastUsedAt: number | null }): Promise<void> {
    const now = this.ctx.now();
    if (key.lastUsedAt === null || now - key.lastUsedAt > TOUCH_EVERY_MS) {
      await keys.touchKey(this.ctx.db, key.principal.keyId, now);
    }
  }
}
