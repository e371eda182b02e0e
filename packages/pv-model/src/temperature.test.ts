import { describe, expect, it } from 'vitest';
import { moduleTemperatureFaiman } from './temperature';

describe('moduleTemperatureFaiman', () => {
  it("gives pvlib temperature.faiman's published values (test_faiman_default, _kwargs, _list)", () => {
    expect(Math.abs(moduleTemperatureFaiman(900, 20, 5) - 35.203)).toBeLessThan(0.001);
    expect(Math.abs(moduleTemperatureFaiman(900, 20, 5, 22, 6) - 37.308)).toBeLessThan(0.001);
    expect(Math.abs(moduleTemperatureFaiman(500, 10, 5) - 18.446)).toBeLessThan(0.001);
    expect(moduleTemperatureFaiman(0, 5, 0)).toBe(5);
  });

  it('treats a negative wind speed as calm', () => {
    expect(moduleTemperatureFaiman(800, 20, -3)).toBe(moduleTemperatureFaiman(800, 20, 0));
  });
});
