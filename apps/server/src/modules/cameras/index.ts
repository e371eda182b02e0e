/**
 * The cameras module's public face: code outside modules/cameras/ imports only from here (docs/architecture.md,
 * "Module boundaries").
 */
export { CameraStreamHub } from './camera-hub';
export {
  CAMERA_PROBE_INTERVAL_MS,
  CameraProbe,
  type CameraProbeOptions,
  type ProbeResult,
} from './camera-probe';
