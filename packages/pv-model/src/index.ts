/**
 * The PV physics the simulator and the KPI engine share (docs/pv-model.md): each formula cites its source.
 * What the simulator adds on top (clouds, degradation, soiling, faults) stays in apps/simulator.
 */
export * from './sun-position';
export * from './clear-sky';
export * from './decomposition';
export * from './transposition';
export * from './temperature';
export * from './dc-power';
export * from './day-energy-bound';
