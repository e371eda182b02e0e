import { intlTag } from './intl';

/** `41.00820, 28.97840` or an empty text when either coordinate is missing. */
export function formatCoordinates(latitude: number | null, longitude: number | null): string {
  if (latitude === null || longitude === null) return '';
  return `${latitude.toFixed(5)}, ${longitude.toFixed(5)}`;
}

/** A number with at most `digits` decimals in the interface language, or an empty text. */
export function formatNumber(value: number | null | undefined, locale: string, digits = 2): string {
  if (value === null || value === undefined) return '';
  return new Intl.NumberFormat(intlTag(locale), { maximumFractionDigits: digits }).format(value);
}
