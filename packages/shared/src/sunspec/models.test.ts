import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SUNSPEC_INVERTER_EVENT1_BITS, SUNSPEC_INVERTER_STATES, SUNSPEC_MODELS } from './models';
import type { SunSpecModel, SunSpecPoint } from './models';

// The SunSpec Alliance's own model definitions live beside the project, not in it.
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const ALLIANCE_DIR = path.resolve(repoRoot, '../shared/data/sunspec');

interface JsonPoint {
  name: string;
  type: string;
  size: number;
  sf?: string | number;
  units?: string;
  mandatory?: string;
  value?: number;
  symbols?: { name: string; value: number }[];
}
interface JsonGroup {
  name: string;
  count?: number | string;
  points: JsonPoint[];
  groups?: JsonGroup[];
}
interface JsonModel {
  id: number;
  group: JsonGroup;
}

function loadAllianceModel(id: number): JsonModel {
  const file = path.join(ALLIANCE_DIR, `model_${id}.json`);
  if (!existsSync(file)) {
    throw new Error(
      `The SunSpec Alliance definition ${file} is missing: the SunSpec templates cannot be checked ` +
        `against the standard without ../shared/data/sunspec/ beside the repository.`,
    );
  }
  return JSON.parse(readFileSync(file, 'utf8')) as JsonModel;
}

/** The JSON gives sizes only; a point's offset is the sum of the sizes before it in its group. */
function withOffsets(points: JsonPoint[]): Map<string, JsonPoint & { offset: number }> {
  const out = new Map<string, JsonPoint & { offset: number }>();
  let offset = 0;
  for (const p of points) {
    out.set(p.name, { ...p, offset });
    offset += p.size;
  }
  return out;
}

const total = (points: { size: number }[]) => points.reduce((sum, p) => sum + p.size, 0);

function expectSamePoints(ours: readonly SunSpecPoint[], theirs: JsonPoint[], where: string) {
  const json = withOffsets(theirs);
  for (const point of ours) {
    const standard = json.get(point.name);
    expect(standard, `${where}: ${point.name} is not in the standard`).toBeDefined();
    expect(
      {
        name: point.name,
        offset: point.offset,
        size: point.size,
        type: point.type,
        sf: point.sf,
        units: point.units,
        mandatory: point.mandatory ?? false,
      },
      `${where}: ${point.name}`,
    ).toEqual({
      name: standard!.name,
      offset: standard!.offset,
      size: standard!.size,
      type: standard!.type,
      sf: standard!.sf,
      units: standard!.units,
      mandatory: standard!.mandatory === 'M',
    });
  }
  const names = new Set(ours.map((p) => p.name));
  const missing = theirs.filter((p) => p.mandatory === 'M' && !names.has(p.name)).map((p) => p.name);
  expect(missing, `${where}: mandatory points we lack`).toEqual([]);
}

describe('SunSpec model definitions against the SunSpec Alliance JSON', () => {
  it('finds the Alliance definitions', () => {
    expect(existsSync(ALLIANCE_DIR), `${ALLIANCE_DIR} is missing`).toBe(true);
  });

  describe.each(Object.values(SUNSPEC_MODELS).map((m) => [m.id, m] as [number, SunSpecModel]))(
    'model %i',
    (id, model) => {
      it('has the standard id, name and fixed length', () => {
        const json = loadAllianceModel(id);
        expect(json.id).toBe(id);
        expect(json.group.name).toBe(model.name);
        expect(json.group.points[0]).toMatchObject({ name: 'ID', value: id });
        expect(model.fixedLength).toBe(total(json.group.points) - 2);
      });

      it('agrees with the standard on every point: offset, size, type, sf, units, mandatory', () => {
        const json = loadAllianceModel(id);
        expectSamePoints(model.points, json.group.points, `model ${id}`);
      });

      it('has its points in order, without overlaps or holes', () => {
        let next = 0;
        for (const p of model.points) {
          expect(p.offset, `${p.name}`).toBe(next);
          next += p.size;
        }
        expect(next).toBe(model.fixedLength + 2);
      });

      it('scales only by scale factors of its own fixed part', () => {
        const sfNames = new Set(model.points.filter((p) => p.type === 'sunssf').map((p) => p.name));
        for (const p of [...model.points, ...(model.repeating?.points ?? [])]) {
          if (typeof p.sf === 'string') expect(sfNames.has(p.sf), `${p.name} → ${p.sf}`).toBe(true);
        }
      });

      it('has the repeating block of the standard', () => {
        const json = loadAllianceModel(id);
        const groups = json.group.groups ?? [];
        if (!model.repeating) {
          expect(groups).toEqual([]);
          return;
        }
        expect(groups).toHaveLength(1);
        const group = groups[0]!;
        expect(group.name).toBe(model.repeating.name);
        expect(model.repeating.length).toBe(total(group.points));
        expectSamePoints(model.repeating.points, group.points, `model ${id} ${group.name}`);
      });
    },
  );

  it('has the inverter operating states and event bits of the standard', () => {
    const points = loadAllianceModel(103).group.points;
    const symbols = (name: string) =>
      Object.fromEntries(points.find((p) => p.name === name)!.symbols!.map((s) => [s.name, s.value]));
    expect(SUNSPEC_INVERTER_STATES).toEqual(symbols('St'));
    expect(SUNSPEC_INVERTER_EVENT1_BITS).toEqual(symbols('Evt1'));
  });

  it('maps each signal key once per model, in the units the standard gives', () => {
    for (const model of Object.values(SUNSPEC_MODELS)) {
      const mapped = [...model.points, ...(model.repeating?.points ?? [])].filter((p) => p.signal);
      const keys = mapped.map((p) => p.signal!.key);
      expect(new Set(keys).size, `model ${model.id}`).toBe(keys.length);
      for (const p of mapped) {
        const { unit, factor } = p.signal!;
        // Power in W becomes kW and energy in Wh becomes kWh; the rest keep their magnitude.
        if (p.units === 'W') expect([unit, factor]).toEqual(['kW', 0.001]);
        if (p.units === 'Wh') expect([unit, factor, p.signal!.isCounter]).toEqual(['kWh', 0.001, true]);
        if (p.units === 'C') expect([unit, factor]).toEqual(['°C', 1]);
      }
    }
  });
});
