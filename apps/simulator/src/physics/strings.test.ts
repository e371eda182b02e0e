import { describe, expect, it } from 'vitest';
import { exampleTopology } from '../example-topology';
import { createVirtualPlant, type VirtualPlantDefinition } from '../plant';
import { OPEN_STRING_CURRENT_A, STRING_MISMATCH, openStrings, stringCount, stringLayout } from './strings';

const HOUR = 3_600_000;

/** Karapınar with eight strings on inv-01 (signals string1…8 current and voltage). */
function withStrings(count: number): VirtualPlantDefinition {
  const [karapinar] = exampleTopology() as [VirtualPlantDefinition];
  return {
    ...karapinar,
    devices: karapinar.devices.map((d) =>
      d.deviceId === 'inv-01'
        ? {
            ...d,
            signals: [
              ...d.signals,
              ...Array.from({ length: count }, (_, k) => [
                { signalId: 9000 + 2 * k, key: `string${k + 1}_dc_current` },
                { signalId: 9001 + 2 * k, key: `string${k + 1}_dc_voltage` },
              ]).flat(),
            ],
          }
        : d,
    ),
  };
}

const currentsOf = (values: Record<string, number>, count: number) =>
  Array.from({ length: count }, (_, k) => values[`string${k + 1}_dc_current`]!);

describe('string currents', () => {
  it("split the inverter's DC current with a small, fixed mismatch", () => {
    const plant = createVirtualPlant(withStrings(8), { seed: 3, clouds: false, faults: false });
    plant.sample(Date.UTC(2025, 5, 21, 3, 0));
    const inv = plant.sample(Date.UTC(2025, 5, 21, 9, 45)).find((s) => s.deviceId === 'inv-01')!.values;
    const currents = currentsOf(inv, 8);
    const sum = currents.reduce((a, b) => a + b, 0);
    expect(Math.abs(sum - inv.dc_current!)).toBeLessThan(0.05);
    const mean = sum / 8;
    for (const c of currents) expect(Math.abs(c / mean - 1)).toBeLessThanOrEqual(STRING_MISMATCH + 0.005);
    expect(new Set(currents).size).toBeGreaterThan(1);
    expect(inv.string1_dc_voltage).toBe(inv.dc_voltage);
    // Another inverter without string signals gets none.
    const other = plant.sample(Date.UTC(2025, 5, 21, 9, 50)).find((s) => s.deviceId === 'inv-02')!.values;
    expect(other.string1_dc_current).toBeUndefined();
  });

  it('shows an injected string loss as one string at about 0 A for its hours, the same for the same seed', () => {
    const day = Date.UTC(2025, 5, 21, 0, 0);
    // A fault is forced when it starts (forceFault acts from the moment it is called).
    const sample = (seed: number) => {
      const plant = createVirtualPlant(withStrings(8), { seed, clouds: false, faults: false });
      const out: number[][] = [];
      for (let ts = day + 4 * HOUR; ts <= day + 12 * HOUR; ts += 15 * 60_000) {
        if (ts === day + 7 * HOUR) plant.forceFault('inv-01', 'string_loss', ts, 3 * HOUR, 0.125);
        const inv = plant.sample(ts).find((s) => s.deviceId === 'inv-01')!.values;
        out.push(currentsOf(inv, 8));
      }
      return out;
    };
    const first = sample(3);
    expect(sample(3)).toEqual(first);
    // 07:00–10:00 UTC (10:00–13:00 in Karapınar): one string at the open current, its siblings carrying more.
    const during = first[7 * 4 - 4 * 4 + 4]!; // 08:00 UTC
    const open = during.map((c, i) => [c, i] as const).filter(([c]) => c <= OPEN_STRING_CURRENT_A);
    expect(open).toHaveLength(1);
    const siblings = during.filter((c) => c > OPEN_STRING_CURRENT_A);
    expect(Math.min(...siblings)).toBeGreaterThan(3);
    // Before and after, every string carries current again.
    const before = first[6 * 4 - 4 * 4 + 2]!; // 06:30 UTC
    const after = first[11 * 4 - 4 * 4]!; // 11:00 UTC
    for (const c of [...before, ...after]) expect(c).toBeGreaterThan(1);
    // The same string is out at every sample of the fault.
    const outAt = (row: number[]) => row.findIndex((c) => c <= OPEN_STRING_CURRENT_A);
    for (let i = 7 * 4 - 16; i < 10 * 4 - 16; i++) expect(outAt(first[i]!)).toBe(open[0]![1]);
  });

  it('takes whole strings out, at least one and never all', () => {
    const layout = stringLayout(1, 'inv-01', 8);
    expect(openStrings(layout, 0.05).size).toBe(1);
    expect(openStrings(layout, 0.25).size).toBe(2);
    expect(openStrings(layout, 1).size).toBe(7);
    expect(openStrings(layout, 0).size).toBe(0);
  });

  it('counts the string inputs a device names', () => {
    expect(
      stringCount(['ac_power', 'string1_dc_current', 'string12_dc_current', 'string12_dc_voltage']),
    ).toBe(12);
    expect(stringCount(['mppt1_dc_current'])).toBe(0);
  });
});
