import { E, URL_SECRET_MASK, V, type Device, type DeviceBodyParsed, type DeviceList } from '@solar/shared';
import type { AppContext } from '../../context';
import { found, hasChildren, type Actor } from '../../lib/actor';
import { recordAudit } from '../../lib/audit';
import { isForeignKeyViolation } from '../../lib/db-errors';
import { badRequest, conflict, notFound } from '../../lib/http-errors';
import { scopeOf } from '../../lib/scope';
import * as repo from './devices.repository';

/** Body → columns; the settings of other protocols are stored as null. */
function valuesOf(body: DeviceBodyParsed): repo.DeviceValues {
  return {
    plant_id: body.plant_id,
    parent_device_id: body.parent_device_id ?? null,
    name: body.name,
    type: body.type,
    brand: body.brand ?? null,
    model: body.model ?? null,
    serial_number: body.serial_number ?? null,
    rated_power_kw: body.rated_power_kw ?? null,
    protocol: body.protocol,
    ip: body.protocol === 'modbus_tcp' ? body.ip : null,
    port: body.protocol === 'modbus_tcp' ? body.port : null,
    slave_id: body.protocol === 'modbus_tcp' || body.protocol === 'modbus_rtu' ? body.slave_id : null,
    baud_rate: body.protocol === 'modbus_rtu' ? body.baud_rate : null,
    mqtt_topic: body.protocol === 'mqtt' ? body.mqtt_topic : null,
    poll_interval_s: body.poll_interval_s,
    snapshot_url: body.snapshot_url ?? null,
    stream_url: body.stream_url ?? null,
    is_active: body.is_active,
  };
}

const urlOrNull = (value: string | null | undefined): URL | null => {
  try {
    return value ? new URL(value) : null;
  } catch {
    return null;
  }
};

/**
 * A camera URL sent back with the masked password (as reads show it) keeps the stored password — but only
 * for the same scheme, host, port and user, so a changed address cannot carry the old password away.
 */
function unmasked(field: 'snapshot_url' | 'stream_url', submitted: string | null, stored: string | null) {
  const url = urlOrNull(submitted);
  if (!url || url.password !== URL_SECRET_MASK) return submitted;
  const previous = urlOrNull(stored);
  if (
    !previous?.password ||
    previous.protocol !== url.protocol ||
    previous.host !== url.host ||
    previous.username !== url.username
  ) {
    throw badRequest({ [field]: [V.invalidUrl] });
  }
  url.password = previous.password;
  return url.toString();
}

/** Devices of a plant, with their topology (parent_device_id) kept inside one plant and free of loops. */
export class DevicesService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now'>) {}

  list(actor: Actor, filter: repo.DeviceListFilter): Promise<DeviceList> {
    return repo.listDevices(this.ctx.db, scopeOf(actor), filter);
  }

  async get(actor: Actor, id: number): Promise<Device> {
    return found(await repo.findDevice(this.ctx.db, scopeOf(actor), id));
  }

  /** id 0 creates. An unreachable device, plant or parent device answers 404 and changes nothing. */
  async save(actor: Actor, id: number, body: DeviceBodyParsed): Promise<Device> {
    const scope = scopeOf(actor);
    const values = valuesOf(body);
    try {
      return await this.ctx.db.transaction().execute(async (trx) => {
        const now = this.ctx.now();
        const before = id === 0 ? undefined : found(await repo.findDevice(trx, scope, id));
        if (
          before?.plant_id !== values.plant_id &&
          !(await repo.plantReachable(trx, scope, values.plant_id))
        ) {
          throw notFound();
        }
        // Child devices stay in their plant: a device with children cannot move to another one.
        if (before && before.plant_id !== values.plant_id) {
          const { devices } = await repo.deviceChildren(trx, id);
          if (devices) throw hasChildren({ devices });
        }
        if (values.parent_device_id !== null) {
          const parent = found(await repo.findDevice(trx, scope, values.parent_device_id));
          if (parent.plant_id !== values.plant_id) throw badRequest({ parent_device_id: [V.invalidValue] });
          if (before && (parent.id === id || (await repo.ancestorsOf(trx, parent.id)).includes(id))) {
            throw badRequest({ parent_device_id: [V.invalidValue] });
          }
        }
        const stored = before ? await repo.storedCameraUrls(trx, id) : undefined;
        values.snapshot_url = unmasked('snapshot_url', values.snapshot_url, stored?.snapshot_url ?? null);
        values.stream_url = unmasked('stream_url', values.stream_url, stored?.stream_url ?? null);
        if (before) await repo.updateDevice(trx, id, values, now);
        const savedId = before ? id : await repo.insertDevice(trx, values, now);
        const after = found(await repo.findDevice(trx, scope, savedId));
        await recordAudit(trx, {
          userId: actor.userId,
          action: before ? 'update' : 'create',
          entity: 'device',
          entityId: savedId,
          before,
          after,
          ip: actor.ip,
          at: now,
        });
        return after;
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw notFound();
      throw error;
    }
  }

  /** Refused with 409 while signals or child devices remain. */
  async remove(actor: Actor, id: number): Promise<void> {
    const scope = scopeOf(actor);
    try {
      await this.ctx.db.transaction().execute(async (trx) => {
        const before = found(await repo.findDevice(trx, scope, id));
        const children = await repo.deviceChildren(trx, id);
        if (children.signals || children.devices) throw hasChildren(children);
        await repo.deleteDevice(trx, id);
        await recordAudit(trx, {
          userId: actor.userId,
          action: 'delete',
          entity: 'device',
          entityId: id,
          before,
          ip: actor.ip,
          at: this.ctx.now(),
        });
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw conflict(E.hasChildren);
      throw error;
    }
  }
}
