import { clearSkyGhiHaurwitz, sunPosition } from '@solar/pv-model';
import { drawText } from './font';
import { encodePng } from './png';

export const CAMERA_WIDTH_PX = 480;
export const CAMERA_HEIGHT_PX = 270;
const HORIZON_PX = 110;

export interface CameraView {
  /** Burnt in at the top; Turkish and Cyrillic letters are transliterated to Latin (font.ts). */
  plantName: string;
  timeZone: string;
  latitude: number;
  longitude: number;
  tsMs: number;
  /** The simulated weather now; without it a clear sky is assumed. */
  poaWm2?: number;
  ghiWm2?: number;
  cloudCover?: number;
}

type Rgb = [number, number, number];
const mix = (a: Rgb, b: Rgb, t: number): Rgb => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];
const scaleRgb = (c: Rgb, k: number): Rgb => [c[0] * k, c[1] * k, c[2] * k];
const clamp01 = (v: number) => Math.min(Math.max(v, 0), 1);

/** Local date and time in the plant's zone, e.g. `2026-11-23 14:05:09`. */
function localTime(tsMs: number, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(tsMs))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/**
 * The demo camera's picture: sky over rows of PV modules. The sky's colour follows the sun's elevation and
 * the cloud cover, the brightness of everything the simulated irradiance, the sun stands at its azimuth;
 * the plant's name, its local time and the irradiance are burnt in. Pure: the same view gives the same PNG.
 */
export function renderCameraPng(view: CameraView): Buffer {
  const W = CAMERA_WIDTH_PX;
  const H = CAMERA_HEIGHT_PX;
  const sun = sunPosition(view.tsMs, view.latitude, view.longitude);
  const ghi = view.ghiWm2 ?? clearSkyGhiHaurwitz(sun.zenithDeg);
  const poa = view.poaWm2 ?? ghi;
  const cover = clamp01(view.cloudCover ?? 0);
  // Day, twilight (sun up to 6° below the horizon) and night, as a 0…1 daylight factor.
  const daylight = clamp01((sun.elevationDeg + 6) / 12);
  const brightness = 0.12 + 0.88 * clamp01(Math.max(poa, ghi) / 1000) * 0.85 + 0.15 * daylight;

  const night: Rgb = [8, 12, 32];
  const zenith = mix(mix(night, [60, 120, 205], daylight), [130, 135, 145], cover * daylight);
  const horizon = mix(mix([20, 24, 50], [175, 205, 238], daylight), [175, 178, 185], cover * daylight);
  const dusk = clamp01(1 - Math.abs(sun.elevationDeg) / 8) * (1 - cover);
  const horizonGlow = mix(horizon, [235, 140, 80], dusk * 0.6);

  const rgb = new Uint8Array(W * H * 3);
  const put = (x: number, y: number, c: Rgb) => {
    if (x < 0 || y < 0 || x >= W || y >= H) return;
    const i = (y * W + x) * 3;
    rgb[i] = Math.round(Math.min(Math.max(c[0], 0), 255));
    rgb[i + 1] = Math.round(Math.min(Math.max(c[1], 0), 255));
    rgb[i + 2] = Math.round(Math.min(Math.max(c[2], 0), 255));
  };

  for (let y = 0; y < HORIZON_PX; y++) {
    const c = mix(zenith, horizonGlow, y / HORIZON_PX);
    for (let x = 0; x < W; x++) put(x, y, c);
  }
  // The sun, placed by azimuth across a 180° view facing south, dimmed by clouds.
  if (sun.elevationDeg > -1) {
    const sx = Math.round(W / 2 + ((sun.azimuthDeg - 180) / 90) * (W / 2));
    const sy = Math.round(HORIZON_PX - (sun.elevationDeg / 90) * HORIZON_PX * 1.6);
    const core = mix([255, 250, 210], zenith, cover * 0.8);
    for (let dy = -12; dy <= 12; dy++) {
      for (let dx = -12; dx <= 12; dx++) {
        if (dx * dx + dy * dy <= 100 && sy + dy < HORIZON_PX) put(sx + dx, sy + dy, core);
      }
    }
  }
  const ground = scaleRgb([70, 95, 55], brightness);
  for (let y = HORIZON_PX; y < H; y++) for (let x = 0; x < W; x++) put(x, y, ground);

  // Rows of modules in perspective: each row lower and wider; cells reflect the sky.
  const cell = mix(scaleRgb([22, 38, 88], brightness), scaleRgb(zenith, 0.6), 0.25 * daylight);
  const frame = scaleRgb([170, 175, 185], brightness);
  for (let row = 0; row < 5; row++) {
    const top = HORIZON_PX + 12 + row * row * 7 + row * 14;
    const height = 8 + row * 5;
    const inset = 150 - row * 34;
    for (let y = top; y < top + height; y++) {
      const t = (y - top) / height;
      const left = Math.round(inset - t * 6);
      const right = Math.round(W - inset + t * 6);
      for (let x = left; x < right; x++) {
        const gridLine = (x - left) % (10 + row * 3) === 0 || y === top || y === top + height - 1;
        put(x, y, gridLine ? frame : cell);
      }
    }
  }

  // Burnt-in text on dark bars.
  for (let y = 0; y < 20; y++) for (let x = 0; x < W; x++) put(x, y, [0, 0, 0]);
  for (let y = H - 20; y < H; y++) for (let x = 0; x < W; x++) put(x, y, [0, 0, 0]);
  const white = (x: number, y: number) => put(x, y, [255, 255, 255]);
  drawText(view.plantName, 6, 3, 2, white);
  drawText(localTime(view.tsMs, view.timeZone), 6, H - 17, 2, white);
  const irradiance = `${Math.round(Math.max(poa, 0))} W/M2`;
  drawText(irradiance, W - 6 - irradiance.length * 12, H - 17, 2, white);
  return encodePng(W, H, rgb);
}
