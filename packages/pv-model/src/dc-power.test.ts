import { describe, expect, it } from 'vitest';
import { pvwattsDcPowerKw, pvwattsExpectedPowerKw } from './dc-power';

describe('pvwattsDcPowerKw', () => {
  it("gives pvlib pvsystem.pvwatts_dc's published value: 900 W/m², 30 °C, 100 kW, γ −0.003 → 88.65 kW", () => {
    expect(pvwattsDcPowerKw(900, 30, 100, -0.003)).toBeCloseTo(88.65, 10);
  });

  it('is P0 at STC, uncorrected without a temperature, and never negative', () => {
    expect(pvwattsDcPowerKw(1000, 25, 250, -0.004)).toBe(250);
    expect(pvwattsDcPowerKw(500, null, 100, -0.004)).toBe(50);
    expect(pvwattsDcPowerKw(-5, 25, 100, -0.004)).toBe(0);
  });
});

describe('pvwattsExpectedPowerKw', () => {
  it("takes PVWatts' lumped losses off the DC power: 88.65 kW less 14 % is 76.239 kW", () => {
    expect(pvwattsExpectedPowerKw(900, 30, 100, -0.003, 0.14)).toBeCloseTo(88.65 * 0.86, 10);
  });
});
