import {
  E,
  REGISTER_TEMPLATES,
  expandRegisterTemplate,
  type RegisterTemplateApplyAnswer,
  type RegisterTemplatesAnswer,
  type registerTemplateApplyBody,
} from '@solar/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { found, type Actor } from '../../lib/actor';
import { conflict } from '../../lib/http-errors';
import { scopeOf } from '../../lib/scope';
import { recordAudit } from '../audit';
import { addLayoutSignals } from '../signals';
import * as repo from './register-templates.repository';

type ApplyBody = z.output<typeof registerTemplateApplyBody>;

/** Register-map templates of non-SunSpec devices: the shipped JSON, and a device's signals made from one. */
export class RegisterTemplatesService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now'>) {}

  list(): RegisterTemplatesAnswer {
    return { templates: Object.values(REGISTER_TEMPLATES) };
  }

  /** Creates the template's signals on a Modbus device of the template's type; keys it has are left alone. */
  async apply(actor: Actor, id: number, body: ApplyBody): Promise<RegisterTemplateApplyAnswer> {
    const device = found(await repo.findDevice(this.ctx.db, scopeOf(actor), id));
    // A shipped template by its id, or one imported with the request (the schema checked both).
    const template = body.template_json ?? REGISTER_TEMPLATES[body.template!]!;
    if (device.protocol !== 'modbus_tcp' && device.protocol !== 'modbus_rtu') throw conflict(E.notModbus);
    if (device.type !== template.device_type) throw conflict(E.templateDeviceType);
    const strings = body.strings ?? template.strings?.default;
    const signals = expandRegisterTemplate(template, strings);
    return this.ctx.db.transaction().execute(async (trx) => {
      const now = this.ctx.now();
      const { created, skipped } = await addLayoutSignals(trx, id, signals, now);
      await recordAudit(trx, {
        userId: actor.userId,
        action: 'register_template_apply',
        entity: 'device',
        entityId: id,
        after: {
          template: template.id,
          imported: body.template_json !== undefined,
          strings: strings ?? null,
          created: created.map((c) => c.key),
          skipped,
        },
        ip: actor.ip,
        at: now,
      });
      return { created, skipped };
    });
  }
}
