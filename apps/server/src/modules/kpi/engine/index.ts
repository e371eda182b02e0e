/** The KPI engine's pure formulas, one import for the routes, services and the daily refresh job. */
export * from './availability';
export * from './co2';
export * from './completeness';
export * from './energy';
export * from './expected-power';
export * from './inverter-intervals';
export * from './irradiance';
export * from './losses';
export * from './periods';
export * from './plant-day';
export * from './status';
export * from './yields';
export * from './budget';
export * from './excluded-energy';
