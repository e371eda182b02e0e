/** The performance engine's pure functions: degradation, soiling, calibration. */
export * from './calibration';
export * from './dates';
export * from './degradation';
export * from './soiling';
export * from './stats';
export * from './input-memo';
