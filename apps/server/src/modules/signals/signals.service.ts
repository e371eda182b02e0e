import type { z } from 'zod';
import { E, V, type Signal, type SignalList, type signalBody } from '@solar/shared';
import type { AppContext } from '../../context';
import { found, type Actor } from '../../lib/actor';
import { recordAudit } from '../../lib/audit';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors';
import { conflict, notFound } from '../../lib/http-errors';
import { scopeOf } from '../../lib/scope';
import * as repo from './signals.repository';

type Body = z.output<typeof signalBody>;

const valuesOf = (body: Body): repo.SignalValues => ({
  device_id: body.device_id,
  key: body.key,
  name: body.name,
  unit: body.unit ?? null,
  data_type: body.data_type,
  register_type: body.register_type ?? null,
  address: body.address ?? null,
  word_order: body.word_order ?? null,
  scale: body.scale,
  is_counter: body.is_counter,
  is_active: body.is_active,
});

const duplicateKey = () => conflict(E.duplicate, { key: [V.duplicate] });

/** Signals (tags) of a device; the key is unique per device. */
export class SignalsService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now'>) {}

  list(actor: Actor, filter: repo.SignalListFilter): Promise<SignalList> {
    return repo.listSignals(this.ctx.db, scopeOf(actor), filter);
  }

  async get(actor: Actor, id: number): Promise<Signal> {
    return found(await repo.findSignal(this.ctx.db, scopeOf(actor), id));
  }

  /** id 0 creates. An unreachable signal or device answers 404; a key used twice on a device 409. */
  async save(actor: Actor, id: number, body: Body): Promise<Signal> {
    const scope = scopeOf(actor);
    const values = valuesOf(body);
    try {
      return await this.ctx.db.transaction().execute(async (trx) => {
        const now = this.ctx.now();
        const before = id === 0 ? undefined : found(await repo.findSignal(trx, scope, id));
        if (
          before?.device_id !== values.device_id &&
          !(await repo.deviceReachable(trx, scope, values.device_id))
        ) {
          throw notFound();
        }
        if (await repo.keyTaken(trx, values.device_id, values.key, id)) throw duplicateKey();
        if (before) await repo.updateSignal(trx, id, values, now);
        const savedId = before ? id : await repo.insertSignal(trx, values, now);
        const after = found(await repo.findSignal(trx, scope, savedId));
        await recordAudit(trx, {
          userId: actor.userId,
          action: before ? 'update' : 'create',
          entity: 'signal',
          entityId: savedId,
          before,
          after,
          ip: actor.ip,
          at: now,
        });
        return after;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateKey();
      if (isForeignKeyViolation(error)) throw notFound();
      throw error;
    }
  }

  async remove(actor: Actor, id: number): Promise<void> {
    await this.ctx.db.transaction().execute(async (trx) => {
      const before = found(await repo.findSignal(trx, scopeOf(actor), id));
      await repo.deleteSignal(trx, id);
      await recordAudit(trx, {
        userId: actor.userId,
        action: 'delete',
        entity: 'signal',
        entityId: id,
        before,
        ip: actor.ip,
        at: this.ctx.now(),
      });
    });
  }
}
