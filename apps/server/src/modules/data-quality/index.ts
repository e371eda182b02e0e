export { detectGaps, detectPlantDay, detectSignalDay } from './detectors';
export type * from './detectors/types';
