/** Transposition of beam, sky and ground irradiance to the plane of the modules. Pure; degrees, W/m². */
import type { IrradianceComponents } from './decomposition';
import type { SunPosition } from './sun-position';

const RAD = Math.PI / 180;

/**
 * Cosine of the angle of incidence of the beam on a plane tilted `tiltDeg` facing `azimuthDeg`
 * (Duffie & Beckman eq. 1.6.3; pvlib irradiance.aoi_projection).
 */
export function cosAngleOfIncidence(sun: SunPosition, tiltDeg: number, azimuthDeg: number): number {
  const z = sun.zenithDeg * RAD;
  const b = tiltDeg * RAD;
  return (
    Math.cos(z) * Math.cos(b) + Math.sin(z) * Math.sin(b) * Math.cos((sun.azimuthDeg - azimuthDeg) * RAD)
  );
}

/**
 * Plane-of-array irradiance with the isotropic sky model (Liu & Jordan 1963; Duffie & Beckman eq. 2.15.1;
 * pvlib irradiance.isotropic plus get_ground_diffuse): POA = DNI · max(cos θ, 0) + DHI · (1 + cos β)/2 +
 * GHI · ρ · (1 − cos β)/2. No Hay–Davies or Perez circumsolar term, no incidence-angle modifier.
 */
export function planeOfArrayIsotropic(
  components: IrradianceComponents,
  sun: SunPosition,
  tiltDeg: number,
  azimuthDeg: number,
  albedo = 0.2,
): number {
  if (components.ghi <= 0) return 0;
  const cosB = Math.cos(tiltDeg * RAD);
  const beam = components.dni * Math.max(cosAngleOfIncidence(sun, tiltDeg, azimuthDeg), 0);
  const sky = (components.dhi * (1 + cosB)) / 2;
  const ground = (components.ghi * albedo * (1 - cosB)) / 2;
  return beam + sky + ground;
}
