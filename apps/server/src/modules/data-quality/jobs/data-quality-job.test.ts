import { describe, expect, it } from 'vitest';
import type { DqPlant } from '../data-quality.repository';
import { dueRuns, type JobMemory } from './data-quality-job';

const plant = (id: number, timeZone: string): DqPlant => ({
  id,
  name: `P${id}`,
  fieldId: 1,
  companyId: 1,
  timeZone,
  latitude: null,
  longitude: null,
  tiltDeg: null,
  azimuthDeg: null,
  acCapacityKw: null,
  dcCapacityKwp: null,
});

describe('dueRuns', () => {
  it("runs each plant's yesterday once after its own midnight, and its today once an hour", () => {
    const istanbul = plant(1, 'Europe/Istanbul');
    const skopje = plant(2, 'Europe/Skopje');
    const memory: JobMemory = { yesterday: new Map(), todayHour: new Map() };
    // 2026-06-10 21:30 UTC: 00:30 of the 11th in Istanbul (UTC+3), 23:30 of the 10th in Skopje (UTC+2).
    const at = Date.parse('2026-06-10T21:30:00Z');
    const first = dueRuns([istanbul, skopje], at, memory).map((r) => [r.plant.id, r.day]);
    expect(first).toEqual([
      [1, '2026-06-10'],
      [2, '2026-06-09'],
      [1, '2026-06-11'],
      [2, '2026-06-10'],
    ]);
    // Ten minutes on, the same hour: nothing.
    expect(dueRuns([istanbul, skopje], at + 10 * 60_000, memory)).toEqual([]);
    // 22:05 UTC: Skopje's midnight has passed (its yesterday is the 10th now), and a new hour for both todays.
    const next = dueRuns([istanbul, skopje], Date.parse('2026-06-10T22:05:00Z'), memory).map((r) => [
      r.plant.id,
      r.day,
    ]);
    expect(next).toEqual([
      [2, '2026-06-10'],
      [1, '2026-06-11'],
      [2, '2026-06-11'],
    ]);
  });
});
