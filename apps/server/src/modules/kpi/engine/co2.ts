/**
 * CO₂ avoided by a plant's energy: kg = energy_kWh × the grid's emission factor (kg CO₂/kWh) of the
 * plant's country. The table below is the default; callers pass overrides (e.g. the plant's or the
 * company's configured factor) and those win.
 */

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

/** The IANA zones of the countries in the table, for plants that have a time zone but no country. */
const COUNTRY_OF_TIME_ZONE: Readonly<Record<string, string>> = {
  'Europe/Istanbul': 'TR',
  'Asia/Istanbul': 'TR',
  'Europe/Skopje': 'MK',
  'Europe/Berlin': 'DE',
  'Europe/Busingen': 'DE',
};

/** The country (ISO alpha-2) of a plant's time zone when the table knows it, else null. */
export function countryOfTimeZone(timeZone: string): string | null {
  return COUNTRY_OF_TIME_ZONE[timeZone] ?? null;
}

/**
 * The factor for a country: an override first, then the table, then the default; `country` says whose
 * factor it is (DEFAULT when it fell back).
 */
export function emissionFactorFor(
  countryCode: string | null,
  overrides: Readonly<Record<string, GridEmissionFactor>> = {},
): GridEmissionFactor & { country: string } {
  const code = countryCode?.toUpperCase() ?? null;
  for (const table of [overrides, GRID_EMISSION_FACTORS]) {
    if (code !== null && table[code]) return { country: code, ...table[code] };
  }
  const fallback = overrides[DEFAULT_COUNTRY] ?? GRID_EMISSION_FACTORS[DEFAULT_COUNTRY]!;
  return { country: DEFAULT_COUNTRY, ...fallback };
}

/** CO₂ avoided in kg: energy_kWh × factor_kg_per_kWh; null without energy. */
export function co2AvoidedKg(energyKwh: number | null, factorKgPerKwh: number): number | null {
  if (energyKwh === null) return null;
  return Math.max(energyKwh, 0) * factorKgPerKwh;
}
