import { LOGIN_BACKGROUND_INDEX_MAX, LOGIN_SLIDES, STORAGE_KEYS } from '@solar/shared';
import { readStorage, writeStorage } from './storage';

/** The next stored background index: cycles 1..9 (spec §4), starting at 1 when nothing valid is saved. */
export function nextBackgroundIndex(saved: string | null): number {
  const previous = Number(saved);
  if (!Number.isInteger(previous) || previous < 1 || previous > LOGIN_BACKGROUND_INDEX_MAX) return 1;
  return (previous % LOGIN_BACKGROUND_INDEX_MAX) + 1;
}

/** The slide after `index` among the 17 slots. */
export function nextSlide(index: number): number {
  return (index + 1) % LOGIN_SLIDES;
}

/** Advances and saves the login background index (localStorage `loginBackgroundIndex`); returns it. */
export function advanceBackgroundIndex(): number {
  const next = nextBackgroundIndex(readStorage(STORAGE_KEYS.loginBackground));
  writeStorage(STORAGE_KEYS.loginBackground, String(next));
  return next;
}
