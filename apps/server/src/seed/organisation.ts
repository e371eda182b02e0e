import type { Insertable } from 'kysely';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import type { DevicesTable, SignalsTable } from '../db/schema';
import { seedDemoBudgets } from './demo-budgets';

/** The operator demo account belongs to the first company; the admin belongs to none and sees all. */
const OPERATOR_EMAIL = 'operator@example.com';

interface DemoPlant {
  name: string;
  latitude: number;
  longitude: number;
  inverters: number;
  commissioning: string;
  subscribers: string[];
  tilt: number;
  azimuth: number;
  /**
   * Its weather station has only a horizontal pyranometer (no in-plane sensor), so the KPIs transpose
   * GHI to the plane of array and say so: the demo shows both irradiance sources.
   */
  ghiOnly?: boolean;
}
interface DemoField {
  name: string;
  city: string;
  district: string;
  address: string;
  latitude: number;
  longitude: number;
  plants: DemoPlant[];
}
interface DemoCompany {
  name: string;
  tax_number: string;
  tax_office: string;
  address: string;
  phone: string;
  email: string;
  timeZone: string;
  fields: DemoField[];
}

const COMPANIES: DemoCompany[] = [
  {
    name: 'Anadolu Güneş Enerjisi A.Ş.',
    tax_number: '0680421957',
    tax_office: 'Meram',
    address: 'Fevzi Çakmak Mah. Gazneliler Cad. No: 12, 42050 Karatay/Konya',
    phone: '+90 332 350 12 34',
    email: 'info@anadolugunes.example.com',
    timeZone: 'Europe/Istanbul',
    fields: [
      {
        name: 'Karapınar Güneş Sahası',
        city: 'Konya',
        district: 'Karapınar',
        address: 'Hotamış Mevkii, 42400 Karapınar/Konya',
        latitude: 37.7161,
        longitude: 33.551,
        plants: [
          {
            name: 'Karapınar GES-1',
            latitude: 37.7182,
            longitude: 33.5471,
            inverters: 8,
            commissioning: '2021-06-15',
            subscribers: ['4001238841'],
            tilt: 30,
            azimuth: 180,
          },
          {
            name: 'Karapınar GES-2',
            latitude: 37.7123,
            longitude: 33.5566,
            inverters: 6,
            commissioning: '2022-04-01',
            subscribers: ['4001238842', '4001238843'],
            tilt: 28,
            azimuth: 180,
          },
        ],
      },
      {
        name: 'Serik Güneş Sahası',
        city: 'Antalya',
        district: 'Serik',
        address: 'Belek Yolu Üzeri 7. km, 07500 Serik/Antalya',
        latitude: 36.9162,
        longitude: 31.0993,
        plants: [
          {
            name: 'Serik GES-1',
            latitude: 36.9171,
            longitude: 31.1008,
            inverters: 4,
            commissioning: '2023-03-20',
            subscribers: ['7015520019'],
            tilt: 25,
            azimuth: 175,
          },
        ],
      },
    ],
  },
  {
    name: 'Vardar Solar DOOEL',
    tax_number: '4030021548763',
    tax_office: 'УЈП Штип',
    address: 'ул. Гоце Делчев 24, 2000 Штип',
    phone: '+389 32 384 120',
    email: 'office@vardarsolar.example.com',
    timeZone: 'Europe/Skopje',
    fields: [
      {
        name: 'Štip Solar Park',
        city: 'Štip',
        district: 'Novo Selo',
        address: 'Industriska zona bb, 2000 Štip',
        latitude: 41.7358,
        longitude: 22.1914,
        plants: [
          {
            name: 'Štip SPP-1',
            latitude: 41.7392,
            longitude: 22.1861,
            inverters: 12,
            commissioning: '2020-09-10',
            subscribers: ['MK-EVN-2231907'],
            tilt: 32,
            azimuth: 180,
          },
          {
            name: 'Štip SPP-2',
            latitude: 41.7331,
            longitude: 22.1985,
            inverters: 10,
            commissioning: '2022-07-05',
            subscribers: ['MK-EVN-2231908'],
            tilt: 32,
            azimuth: 185,
          },
          {
            name: 'Karbinci SPP',
            latitude: 41.8164,
            longitude: 22.2367,
            inverters: 5,
            commissioning: '2024-05-17',
            subscribers: ['MK-EVN-2240115'],
            tilt: 30,
            azimuth: 180,
            ghiOnly: true,
          },
        ],
      },
    ],
  },
];

/** Inverter rating of the demo fleet (a 100 kW string inverter class). */
const INVERTER_KW = 100;
/** DC/AC ratio of the demo plants. */
const DC_AC_RATIO = 1.2;

type SignalDef = Pick<
  Insertable<SignalsTable>,
  'key' | 'name' | 'unit' | 'data_type' | 'register_type' | 'address' | 'word_order' | 'scale' | 'is_counter'
>;

const reg = (
  key: string,
  name: string,
  unit: string | null,
  data_type: string,
  address: number,
  scale: number,
  is_counter = 0,
): SignalDef => ({
  key,
  name,
  unit,
  data_type,
  register_type: 'holding',
  address,
  word_order: data_type.endsWith('32') ? 'big' : null,
  scale,
  is_counter,
});
const topic = (key: string, name: string, unit: string | null): SignalDef => ({
  key,
  name,
  unit,
  data_type: 'float32',
  register_type: null,
  address: null,
  word_order: null,
  scale: 1,
  is_counter: 0,
});

/**
 * Signals per device type; register addresses follow a common string-inverter and meter map. `name` is
 * the Turkish display name people pick by; `key` stays the technical name (the SunSpec point or the
 * simulator's key) that collectors, alarms and exports use.
 */
const SIGNALS: Record<string, SignalDef[]> = {
  inverter: [
    reg('ac_power', 'AC Güç', 'kW', 'int32', 32080, 0.001),
    reg('dc_power', 'DC Güç', 'kW', 'int32', 32064, 0.001),
    reg('daily_energy', 'Günlük Enerji', 'kWh', 'uint32', 32114, 0.01),
    reg('total_energy', 'Toplam Enerji', 'kWh', 'uint32', 32106, 0.01, 1),
    reg('ac_voltage', 'AC Gerilim', 'V', 'uint16', 32069, 0.1),
    reg('ac_current', 'AC Akım', 'A', 'int32', 32072, 0.001),
    reg('dc_voltage', 'DC Gerilim', 'V', 'int16', 32016, 0.1),
    reg('dc_current', 'DC Akım', 'A', 'int16', 32017, 0.01),
    reg('temperature', 'İç Sıcaklık', '°C', 'int16', 32087, 0.1),
    reg('status_code', 'Durum Kodu', null, 'uint16', 32089, 1),
    // SunSpec model 103 Evt1: the cause of a trip (ground fault, grid disconnect, over-temperature…).
    reg('event_bits', 'Olay Bitleri', null, 'uint32', 32008, 1),
    // SunSpec model 160: the two MPPT inputs (the inverter page's MPPT table).
    ...[1, 2].flatMap((n) => [
      reg(`mppt${n}_dc_voltage`, `MPPT${n} DC Gerilim`, 'V', 'int16', 32016 + 4 * n, 0.1),
      reg(`mppt${n}_dc_current`, `MPPT${n} DC Akım`, 'A', 'int16', 32017 + 4 * n, 0.01),
      reg(`mppt${n}_dc_power`, `MPPT${n} DC Güç`, 'kW', 'int32', 32018 + 4 * n, 0.001),
    ]),
    // SunSpec model 123 WMaxLimPct as in force: the grid operator's active-power limit (KPI grid curtailment).
    reg('active_power_limit_pct', 'Aktif Güç Sınırı', '%', 'uint16', 40125, 0.1),
  ],
  meter: [
    reg('active_power', 'Aktif Güç', 'kW', 'float32', 52, 1),
    reg('import_energy', 'Alınan Enerji', 'kWh', 'float32', 72, 1, 1),
    reg('export_energy', 'Verilen Enerji', 'kWh', 'float32', 74, 1, 1),
    reg('voltage', 'Gerilim', 'V', 'float32', 0, 1),
    reg('current', 'Akım', 'A', 'float32', 6, 1),
    reg('frequency', 'Frekans', 'Hz', 'float32', 70, 1),
    reg('power_factor', 'Güç Faktörü', null, 'float32', 62, 1),
    // 1 while the grid at the connection point is there, 0 during an outage (KPI grid outage).
    reg('grid_available', 'Şebeke Mevcut', null, 'uint16', 200, 1),
  ],
  weather_station: [
    topic('irradiance', 'Işınım', 'W/m²'),
    // Global horizontal irradiance next to the in-plane sensor (transposition when the POA sensor fails).
    topic('ghi', 'Yatay Işınım (GHI)', 'W/m²'),
    topic('module_temperature', 'Modül Sıcaklığı', '°C'),
    topic('ambient_temperature', 'Ortam Sıcaklığı', '°C'),
    topic('wind_speed', 'Rüzgâr Hızı', 'm/s'),
  ],
  transformer: [topic('temperature', 'Sargı Sıcaklığı', '°C'), topic('load', 'Yük', '%')],
};

/** The demo inverter (of the first plant) whose string inputs are simulated, and how many it has. */
export const DEMO_STRING_INVERTER = 'INV-02';
export const DEMO_STRINGS = 8;

const slug = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ı/g, 'i')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Inserts rows in chunks that stay far below either dialect's bound-parameter limit. */
async function insertChunked<T>(
  rows: T[],
  size: number,
  insert: (chunk: T[]) => Promise<unknown>,
): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/**
 * Seeds the demo organisation (2 companies, 3 fields, 6 plants with devices and signals) on a database
 * that has no companies yet, and puts the operator account in the first company. Safe to run on every
 * start: it changes nothing once companies exist, apart from giving a company-less operator one.
 */
export async function seedOrganisation(ctx: Pick<AppContext, 'db' | 'now'>): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('companies').select('id').limit(1).executeTakeFirst();
    if (!existing) await seed(trx, ctx.now());
    const first = await trx.selectFrom('companies').select('id').orderBy('id').limit(1).executeTakeFirst();
    if (first) {
      await trx
        .updateTable('users')
        .set({ company_id: first.id })
        .where('email', '=', OPERATOR_EMAIL)
        .where('company_id', 'is', null)
        .execute();
    }
  });
}

async function seed(db: Db, now: number): Promise<void> {
  const stamps = { created_at: now, updated_at: now };
  const plants: { id: number; index: number; demo: DemoPlant }[] = [];
  for (const company of COMPANIES) {
    const { fields, timeZone, ...columns } = company;
    const { id: companyId } = await db
      .insertInto('companies')
      .values({ ...columns, is_active: 1, ...stamps })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const field of fields) {
      const { plants: demoPlants, ...fieldColumns } = field;
      const { id: fieldId } = await db
        .insertInto('fields')
        .values({ ...fieldColumns, company_id: companyId, is_active: 1, ...stamps })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const p of demoPlants) {
        const acKw = p.inverters * INVERTER_KW;
        const { id } = await db
          .insertInto('plants')
          .values({
            field_id: fieldId,
            name: p.name,
            dc_capacity_kwp: Math.round(acKw * DC_AC_RATIO * 10) / 10,
            ac_capacity_kw: acKw,
            latitude: p.latitude,
            longitude: p.longitude,
            time_zone: timeZone,
            commissioning_date: p.commissioning,
            subscriber_numbers: JSON.stringify(p.subscribers),
            tilt_deg: p.tilt,
            azimuth_deg: p.azimuth,
            is_active: 1,
            ...stamps,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        plants.push({ id, index: plants.length + 1, demo: p });
      }
    }
  }

  const device = (
    plantId: number,
    values: Partial<Insertable<DevicesTable>> & Pick<Insertable<DevicesTable>, 'name' | 'type' | 'protocol'>,
  ): Insertable<DevicesTable> => ({
    plant_id: plantId,
    poll_interval_s: 60,
    is_active: 1,
    ...stamps,
    ...values,
  });

  // Transformers first: the inverters hang under them.
  await db
    .insertInto('devices')
    .values(
      plants.map(({ id, demo }) =>
        device(id, {
          name: 'TR-1',
          type: 'transformer',
          brand: 'Schneider Electric',
          model: 'Trihal 1250 kVA',
          serial_number: `TRH-${slug(demo.name).toUpperCase()}-01`,
          rated_power_kw: Math.ceil((demo.inverters * INVERTER_KW * 1.1) / 50) * 50,
          protocol: 'mqtt',
          mqtt_topic: `solar/${slug(demo.name)}/transformer/tr-1`,
        }),
      ),
    )
    .execute();
  const transformers = new Map(
    (
      await db
        .selectFrom('devices')
        .select(['id', 'plant_id'])
        .where('type', '=', 'transformer')
        .where(
          'plant_id',
          'in',
          plants.map((p) => p.id),
        )
        .execute()
    ).map((r) => [r.plant_id, r.id]),
  );

  const others: Insertable<DevicesTable>[] = [];
  for (const { id, index, demo } of plants) {
    const net = `10.${20 + index}.1`;
    const base = slug(demo.name);
    for (let i = 1; i <= demo.inverters; i++) {
      const n = String(i).padStart(2, '0');
      others.push(
        device(id, {
          parent_device_id: transformers.get(id) ?? null,
          name: `INV-${n}`,
          type: 'inverter',
          brand: 'Huawei',
          model: 'SUN2000-100KTL-M1',
          serial_number: `HV${2100 + index}${String(index * 1000 + i).padStart(6, '0')}`,
          rated_power_kw: INVERTER_KW,
          protocol: 'modbus_tcp',
          ip: `${net}.${10 + i}`,
          port: 502,
          slave_id: 1,
          poll_interval_s: 30,
        }),
      );
    }
    others.push(
      device(id, {
        name: 'Meter-1',
        type: 'meter',
        brand: 'Janitza',
        model: 'UMG 604-PRO',
        serial_number: `JZ7${String(index).padStart(2, '0')}4410`,
        protocol: 'modbus_tcp',
        ip: `${net}.3`,
        port: 502,
        slave_id: 1,
        poll_interval_s: 15,
      }),
      device(id, {
        name: 'WS-1',
        type: 'weather_station',
        brand: 'Lufft',
        model: 'WS601-UMB',
        serial_number: `LF60${String(index).padStart(2, '0')}187`,
        protocol: 'mqtt',
        mqtt_topic: `solar/${base}/weather/ws-1`,
      }),
      device(id, {
        name: 'CAM-1',
        type: 'camera',
        brand: 'Hikvision',
        model: 'DS-2CD2T47G2-L',
        serial_number: `HK2T47${String(index).padStart(3, '0')}`,
        protocol: 'http',
        snapshot_url: `http://${net}.50/ISAPI/Streaming/channels/101/picture`,
        stream_url: `rtsp://${net}.50:554/Streaming/Channels/101`,
        poll_interval_s: 300,
      }),
    );
  }
  await insertChunked(others, 100, (chunk) => db.insertInto('devices').values(chunk).execute());

  const devices = await db
    .selectFrom('devices')
    .select(['id', 'type', 'plant_id'])
    .where(
      'plant_id',
      'in',
      plants.map((p) => p.id),
    )
    .orderBy('id')
    .execute();
  const ghiOnly = new Set(plants.filter((p) => p.demo.ghiOnly).map((p) => p.id));
  const signals: Insertable<SignalsTable>[] = devices.flatMap((d) =>
    (SIGNALS[d.type] ?? [])
      .filter((s) => !(d.type === 'weather_station' && s.key === 'irradiance' && ghiOnly.has(d.plant_id)))
      .map((s) => ({ ...s, device_id: d.id, is_active: 1, ...stamps })),
  );
  // One inverter of the first plant reports its string inputs, so the inverter page's string heat map and
  // the string-fault alarm have data (docs/string-health.md); one inverter keeps the first start cheap.
  const stringInverter = await db
    .selectFrom('devices')
    .select('id')
    .where('plant_id', '=', plants[0]!.id)
    .where('type', '=', 'inverter')
    .where('name', '=', DEMO_STRING_INVERTER)
    .executeTakeFirst();
  if (stringInverter)
    for (let n = 1; n <= DEMO_STRINGS; n++)
      signals.push({
        ...topic(`string${n}_dc_current`, `PV${n} Akımı`, 'A'),
        device_id: stringInverter.id,
        is_active: 1,
        ...stamps,
      });
  await insertChunked(signals, 200, (chunk) => db.insertInto('signals').values(chunk).execute());
  await seedDemoBudgets(
    db,
    plants.map((p) => p.id),
    now,
  );
}
