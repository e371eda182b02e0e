/** The browser benchmarks record their figures the way the server's do (apps/server/bench/report.ts). */
export { figureName, recordFigure, recordLatencies, type Figure } from '../../apps/server/bench/report';
