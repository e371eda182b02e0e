/**
 * CO₂ avoided by a plant's energy: kg = energy_kWh × the grid's emission factor (kg CO₂/kWh) of the
 * plant's country. The factor in force (emissionFactorFor), most specific first:
 *   1. the admin panel's override for the plant's country (table co2_factor_overrides);
 *   2. the built-in table below for that country;
 *   3. the admin's override of DEFAULT;
 *   4. the built-in DEFAULT (world average).
 * There is no per-company or per-plant factor today; one would come before 1, as the most specific.
 */
import { ZONES_BY_COUNTRY } from './zone-countries';

export interface GridEmissionFactor {
  kgPerKwh: number;
  /** The year the factor describes. */
  year: number;
  /** Publisher and publication, so a reader can check the figure. */
  source: string;
}

/** Key of the fallback factor for countries without one of their own. */
export const DEFAULT_COUNTRY = 'DEFAULT';

/**
 * Grid emission factors by ISO 3166-1 alpha-2 code. Average-mix factors (emissions of generation per kWh),
 * so the countries compare like with like.
 */
export const GRID_EMISSION_FACTORS: Readonly<Record<string, GridEmissionFactor>> = {
  // Ministry of Energy and Natural Resources (ETKB), "Türkiye Elektrik Üretimi ve Elektrik Tüketim Noktası
  // Emisyon Faktörleri", 2020 data published 2022: 0.440 t CO₂-eq per MWh of net generation. (ETKB's
  // combined-margin factor for new solar, 0.6488 t/MWh for 2020, is the CDM-style alternative for
  // project crediting; we report against the average mix.)
  TR: {
    kgPerKwh: 0.44,
    year: 2020,
    source: 'ETKB, Türkiye Elektrik Üretimi ve Elektrik Tüketim Noktası Emisyon Faktörleri (2022)',
  },
  // Umweltbundesamt, "Entwicklung der spezifischen Treibhausgas-Emissionen des deutschen Strommix in den
  // Jahren 1990–2023" (2024): CO₂ emission factor of the German electricity mix 2023, 380 g/kWh (estimate).
  DE: {
    kgPerKwh: 0.38,
    year: 2023,
    source:
      'Umweltbundesamt, Entwicklung der spezifischen Treibhausgas-Emissionen des deutschen Strommix (2024)',
  },
  // North Macedonia publishes no national grid factor we could find; Ember's yearly electricity data give
  // 517 g CO₂-eq/kWh of generation for 2022 (lignite-heavy: Bitola, Oslomej), as republished by
  // lowcarbonpower.org. A life-cycle basis, so slightly above a direct-combustion factor.
  MK: {
    kgPerKwh: 0.517,
    year: 2022,
    source: 'Ember, Yearly Electricity Data (2022 carbon intensity of generation)',
  },
  // World average carbon intensity of power generation, 2023: 481 g CO₂/kWh (Ember, Global Electricity
  // Review 2024).
  [DEFAULT_COUNTRY]: {
    kgPerKwh: 0.481,
    year: 2023,
    source: 'Ember, Global Electricity Review 2024 (world average 2023)',
  },
};

const COUNTRY_OF_TIME_ZONE: ReadonlyMap<string, string> = new Map(
  Object.entries(ZONES_BY_COUNTRY).flatMap(([country, zones]) => zones.map((zone) => [zone, country])),
);

/**
 * The country (ISO alpha-2) of a plant's time zone, else null (Etc/UTC and the like): any country, so a
 * factor the admin adds for it applies to its plants.
 */
export function countryOfTimeZone(timeZone: string): string | null {
  return COUNTRY_OF_TIME_ZONE.get(timeZone) ?? null;
}

/** A factor in force: whose it is (DEFAULT when it fell back) and whether the admin's or the table's. */
export interface FactorInForce extends GridEmissionFactor {
  country: string;
  origin: 'override' | 'built_in';
}

/**
 * The factor for a country, in the order of this file's header: the admin's override, the table, the
 * admin's DEFAULT, the table's DEFAULT.
 */
export function emissionFactorFor(
  countryCode: string | null,
  overrides: Readonly<Record<string, GridEmissionFactor>> = {},
): FactorInForce {
  const code = countryCode?.toUpperCase() ?? null;
  const pick = (country: string): FactorInForce | null => {
    if (Object.hasOwn(overrides, country)) return { country, origin: 'override', ...overrides[country]! };
    if (Object.hasOwn(GRID_EMISSION_FACTORS, country))
      return { country, origin: 'built_in', ...GRID_EMISSION_FACTORS[country]! };
    return null;
  };
  return (code === null ? null : pick(code)) ?? pick(DEFAULT_COUNTRY)!;
}

/** CO₂ avoided in kg: energy_kWh × factor_kg_per_kWh; null without energy. */
export function co2AvoidedKg(energyKwh: number | null, factorKgPerKwh: number): number | null {
  if (energyKwh === null) return null;
  return Math.max(energyKwh, 0) * factorKgPerKwh;
}
