import { E, URL_SECRET_MASK, V, type Device, type DeviceBodyParsed, type DeviceList } from '@solar/shared';
import type { AppContext } from '../../context';
import { found, hasChildren, type Actor } from '../../lib/actor';
import { auditedRemove, auditedSave } from '../audit';
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
    // modbus_rtu: a gateway's address, or none on a serial port.
    ip: body.protocol === 'modbus_tcp' ? body.ip : body.protocol === 'modbus_rtu' ? (body.ip ?? null) : null,
    port:
      body.protocol === 'modbus_tcp'
        ? body.port
        : body.protocol === 'modbus_rtu'
          ? (body.port ?? null)
          : null,
    slave_id: body.protocol === 'modbus_tcp' || body.protocol === 'modbus_rtu' ? body.slave_id : null,
    baud_rate: body.protocol === 'modbus_rtu' ? body.baud_rate : null,
    serial_path: body.protocol === 'modbus_rtu' ? (body.serial_path ?? null) : null,
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

/** Default ports of the schemes a camera address may have, for the own-port check. */
const SCHEME_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'rtsp:': 554 };

/** Devices of a plant, with their topology (parent_device_id) kept inside one plant and free of loops. */
export class DevicesService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now' | 'deviceNetworks'>) {}

  /**
   * 400 naming each field whose address lies outside the device networks (lib/device-networks.ts): the
   * Modbus TCP host (or RTU-over-TCP gateway) and the camera addresses. Checked before the transaction, since a name is resolved.
   */
  private async checkNetworks(values: repo.DeviceValues): Promise<void> {
    const networks = this.ctx.deviceNetworks;
    const errors: Record<string, string[]> = {};
    if (values.ip !== null && values.port !== null && !(await networks.savable(values.ip, values.port))) {
      errors.ip = [V.networkNotAllowed];
    }
    for (const field of ['snapshot_url', 'stream_url'] as const) {
      const url = urlOrNull(values[field]);
      if (!url?.hostname) continue;
      const port = url.port ? Number(url.port) : (SCHEME_PORTS[url.protocol] ?? 0);
      if (!(await networks.savable(url.hostname, port))) errors[field] = [V.networkNotAllowed];
    }
    if (Object.keys(errors).length) throw badRequest(errors);
  }

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
    await this.checkNetworks(values);
    return auditedSave(this.ctx, actor, id, {
      entity: 'device',
      find: (trx, deviceId) => repo.findDevice(trx, scope, deviceId),
      check: async (trx, before) => {
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
        // A masked password sent back (as reads show it) stands for the stored one.
        const stored = before ? await repo.storedCameraUrls(trx, id) : undefined;
        values.snapshot_url = unmasked('snapshot_url', values.snapshot_url, stored?.snapshot_url ?? null);
        values.stream_url = unmasked('stream_url', values.stream_url, stored?.stream_url ?? null);
      },
      insert: (trx, now) => repo.insertDevice(trx, values, now),
      update: (trx, deviceId, _before, now) => repo.updateDevice(trx, deviceId, values, now),
      // The plant or parent device was deleted between the check and the write.
      onForeignKey: notFound,
    });
  }

  /** Refused with 409 while signals or child devices remain. */
  async remove(actor: Actor, id: number): Promise<void> {
    const scope = scopeOf(actor);
    await auditedRemove(this.ctx, actor, id, {
      entity: 'device',
      find: (trx, deviceId) => repo.findDevice(trx, scope, deviceId),
      check: async (trx) => {
        const children = await repo.deviceChildren(trx, id);
        if (children.signals || children.devices) throw hasChildren(children);
      },
      remove: (trx, deviceId) => repo.deleteDevice(trx, deviceId),
      onForeignKey: () => conflict(E.hasChildren),
    });
  }
}
