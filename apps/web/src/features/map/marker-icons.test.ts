import { describe, expect, it } from 'vitest';
import { boundsOf, clusterHtml, clusterSizePx, escapeHtml, markerHtml, worstStatus } from './marker-icons';

describe('map markers', () => {
  it('gives a cluster the status of its plant that needs attention first', () => {
    expect(worstStatus(['normal', 'night', 'warning'])).toBe('warning');
    expect(worstStatus(['normal', 'offline', 'fault', 'warning'])).toBe('fault');
    expect(worstStatus(['night', 'normal'])).toBe('night');
    expect(worstStatus([])).toBeNull();
  });

  it('marks each status with its own class and glyph, and escapes the screen-reader label', () => {
    expect(markerHtml('fault')).toContain('plant-marker--fault');
    expect(markerHtml('fault')).toContain('✕');
    expect(markerHtml('normal')).toContain('✓');
    const html = clusterHtml(12, 'warning', 'Güneş <A&B> "12"');
    expect(html).toContain('>12<');
    expect(html).toContain('Güneş &#60;A&#38;B&#62; &#34;12&#34;');
    expect(escapeHtml(`<img onerror='x'>`)).not.toMatch(/[<>']/);
  });

  it('grows clusters with their count within a touch-friendly range', () => {
    expect(clusterSizePx(2)).toBeGreaterThanOrEqual(36);
    expect(clusterSizePx(2000)).toBeGreaterThan(clusterSizePx(20));
    expect(clusterSizePx(1e9)).toBe(56);
  });

  it('bounds every plant, or nothing when there is none', () => {
    expect(
      boundsOf([
        { latitude: 41.0, longitude: 28.9 },
        { latitude: 42.0, longitude: 21.4 },
        { latitude: 52.5, longitude: 13.4 },
      ]),
    ).toEqual([
      [41.0, 13.4],
      [52.5, 28.9],
    ]);
    expect(boundsOf([])).toBeNull();
  });
});
