import { serializerCompiler } from 'fastify-type-provider-zod';
import { latestAnswer, telemetryAnswer } from '@solar/shared';
import { describe, expect, it } from 'vitest';
import { seeded } from '../../test/random-series';
import { latestAnswerSerializer, telemetryAnswerSerializer } from './telemetry.serializer';

const route = { schema: telemetryAnswer, method: 'GET', url: '/api/telemetry', httpStatus: '200' };
const zod = serializerCompiler(route);
const quick = telemetryAnswerSerializer(route);

const answer = (random: () => number) => ({
  resolution: '5m',
  agg: 'avg',
  from: '2026-11-01T00:00:00.000Z',
  to: '2026-11-02T00:00:00.000Z',
  // Keys outside the schema are dropped by both.
  extra: 1,
  series: Array.from({ length: 1 + Math.floor(random() * 5) }, (_, i) => ({
    signal_id: i + 1,
    device_id: 7,
    device_name: 'Inverter 1',
    key: `k${i}`,
    name: 'Power',
    unit: random() < 0.3 ? null : 'kW',
    is_counter: random() < 0.5,
    time_zone: 'Europe/Istanbul',
    points: Array.from({ length: Math.floor(random() * 300) }, (_, j) => [
      1_790_000_000_000 + j * 300_000,
      random() < 0.1 ? null : Math.round(random() * 1e6) / 7,
    ]),
  })),
});

/** The telemetry answer's serializer must say exactly what the app-wide zod serializer says. */
describe('telemetry answer serializer', () => {
  it('writes the same JSON as the zod serializer', () => {
    const random = seeded(11);
    for (let n = 0; n < 50; n++) {
      const data = answer(random);
      expect(quick(data)).toBe(zod(data));
    }
  });

  it('refuses what the schema refuses: infinite values, a wrong tuple, a wrong field', () => {
    const bad = [
      (a: ReturnType<typeof answer>) => a.series[0]!.points.push([1, -Infinity]),
      (a: ReturnType<typeof answer>) => a.series[0]!.points.push([Number.NaN, 1]),
      (a: ReturnType<typeof answer>) => a.series[0]!.points.push([1, 2, 3]),
      (a: ReturnType<typeof answer>) => ((a.series[0] as { signal_id: unknown }).signal_id = 'x'),
      (a: ReturnType<typeof answer>) => ((a as { resolution: string }).resolution = 'weekly'),
    ];
    for (const spoil of bad) {
      const data = answer(seeded(3));
      spoil(data);
      expect(() => zod(data)).toThrow();
      expect(() => quick(data)).toThrow();
    }
  });
});

const latestRoute = { schema: latestAnswer, method: 'GET', url: '/api/telemetry/latest', httpStatus: '200' };
const latestZod = serializerCompiler(latestRoute);
const latestQuick = latestAnswerSerializer(latestRoute);

const awkward = ['ac_power', 'q"uote', 'back\\slash', 'tab\tnew\nline', 'ünïcødé ☀', '\u2028', ''];
const latest = (random: () => number) => ({
  // Keys outside the schema are dropped by both, on the answer and on every value.
  extra: 'x',
  items: Array.from({ length: Math.floor(random() * 40) }, (_, i) => ({
    ...(random() < 0.3 ? { extra: i } : {}),
    // Not in the schema's order: the JSON must still come out in it.
    value: [0, -0, 0.1 + 0.2, 5e-324, 1e21, -1.7976931348623157e308, Math.round(random() * 1e6) / 7][i % 7],
    ts: new Date(1_790_000_000_000 + i * 60_000).toISOString(),
    unit: random() < 0.3 ? null : awkward[i % awkward.length],
    key: awkward[(i + 3) % awkward.length],
    device_id: 7 + (i % 3),
    signal_id: i === 0 ? Number.MAX_SAFE_INTEGER : i + 1,
  })),
});

/** The latest answer's serializer must say exactly what the app-wide zod serializer says. */
describe('latest answer serializer', () => {
  it('writes the same JSON as the zod serializer', () => {
    const random = seeded(5);
    for (let n = 0; n < 50; n++) {
      const data = latest(random);
      expect(latestQuick(data)).toBe(latestZod(data));
    }
    expect(latestQuick({ items: [] })).toBe('{"items":[]}');
  });

  it('refuses what the schema refuses: a value that is not finite, a wrong or missing field', () => {
    type Latest = ReturnType<typeof latest>;
    const bad = [
      (a: Latest) => (a.items[0]!.value = Infinity),
      (a: Latest) => (a.items[1]!.value = Number.NaN),
      (a: Latest) => ((a.items[2] as { value: unknown }).value = '1'),
      (a: Latest) => (a.items[0]!.signal_id = 1.5),
      (a: Latest) => (a.items[1]!.device_id = 2 ** 53),
      (a: Latest) => delete (a.items[2] as { unit?: unknown }).unit,
      (a: Latest) => ((a.items[0] as { ts: unknown }).ts = 1_790_000_000_000),
      (a: Latest) => ((a.items[1] as { key: unknown }).key = null),
      (a: Latest) => ((a.items as unknown[])[2] = null),
      (a: Latest) => ((a as { items: unknown }).items = {}),
    ];
    for (const spoil of bad) {
      const data = latest(seeded(3));
      while (data.items.length < 3) data.items.push(...latest(seeded(data.items.length + 9)).items);
      spoil(data);
      expect(() => latestZod(data)).toThrow();
      expect(() => latestQuick(data)).toThrow();
    }
  });
});
