import { beforeAll, describe, expect, it } from 'vitest';
import type { FaultStatus } from '@solar/shared';
import { i18n, loadAllTexts } from './i18n';
import { isTranslationKey, knownKey, prefixedKey, type TranslationKey } from './i18n-keys';

/**
 * The `@ts-expect-error` lines are the type-level test: `tsc -p apps/web` (npm run check) fails if any of
 * them compiles, that is if an unknown key stops being a type error.
 */
describe('typed translation keys', () => {
  // The login bundle carries only the login texts; the console loads the rest (public-app split).
  beforeAll(() => loadAllTexts());

  it('accepts the keys of tr_TR.json and refuses others at compile time', () => {
    expect(i18n.t('pages.map')).not.toBe('pages.map');
    // @ts-expect-error: not a key of tr_TR.json
    expect(i18n.t('no.such.key')).toBe('no.such.key');
    const key: TranslationKey = 'validation.required';
    // @ts-expect-error: an intermediate node is not a text
    const node: TranslationKey = 'validation';
    expect([key, node]).toHaveLength(2);
  });

  it('builds keys from a prefix and a typed suffix', () => {
    const status: FaultStatus = 'in_progress';
    expect(prefixedKey('faults.status', status)).toBe('faults.status.in_progress');
    // @ts-expect-error: faults.status has no `lost`
    expect(prefixedKey('faults.status', 'lost')).toBe('faults.status.lost');
  });

  it('guards keys that arrive at run time', () => {
    expect(isTranslationKey('errors.notFound')).toBe(true);
    expect(isTranslationKey('errors')).toBe(false);
    expect(isTranslationKey('errors.noSuchError')).toBe(false);
    expect(knownKey('errors.notFound', 'common.failure')).toBe('errors.notFound');
    expect(knownKey('errors.noSuchError', 'common.failure')).toBe('common.failure');
    expect(knownKey(undefined, 'validation.invalidValue')).toBe('validation.invalidValue');
  });
});
