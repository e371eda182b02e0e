import { serializerCompiler } from 'fastify-type-provider-zod';
import { telemetryAnswer } from '@solar/shared';
import { describe, expect, it } from 'vitest';
import { seeded } from '../../test/random-series';
import { telemetryAnswerSerializer } from './telemetry.serializer';

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
