/**
 * The heat map's colour of a string's ratio to its siblings' median: red at half the median or less,
 * through amber at the fault threshold's neighbourhood, to green at the median and above. The hue carries
 * the meaning and the lightness suits the theme (darker cells on the dark background), so both themes keep
 * the same reading; every cell also has its figure in its label, for readers who cannot tell the hues apart.
 */
export function ratioColour(ratio: number, dark: boolean): string {
  const clamped = Math.min(1, Math.max(0.5, ratio));
  const hue = Math.round(((clamped - 0.5) / 0.5) * 120);
  return `hsl(${hue} 70% ${dark ? 38 : 55}%)`;
}
