/**
 * The data-quality module's public face: code outside modules/data-quality/ imports only from here
 * (docs/architecture.md, "Module boundaries").
 */
export { detectGaps, detectPlantDay, detectSignalDay } from './detectors';
export type * from './detectors/types';
export {
  flagsStamp,
  readFlagsOfReasons,
  readFlagsOfReasonsOfPlants,
  upsertReportedFlags,
  type FlagRow,
  type ReportedStretch,
} from './data-quality.repository';
export { DataQualityEngine, type PlantDayRun } from './engine/data-quality-engine';
export { startDataQualityJob, type DataQualityJob } from './jobs/data-quality-job';
export { DetectionRunner, DetectionStopped, detectionSourceOf } from './engine/detection-runner';
