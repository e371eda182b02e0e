import { describe, expect, it } from 'vitest';
import { CONSOLE_ROUTES } from '@solar/shared';
import { KNOWN_ICONS } from './menu-icons';
import { CONSOLE_PAGES } from './page-registry';

describe('route table wiring', () => {
  it('has a lazy page for every route of CONSOLE_ROUTES and nothing else', () => {
    expect(Object.keys(CONSOLE_PAGES).sort()).toEqual(CONSOLE_ROUTES.map((r) => r.path).sort());
  });
  it('knows the icon of every menu route', () => {
    const missing = CONSOLE_ROUTES.filter((r) => r.inMenu && !KNOWN_ICONS.includes(r.icon ?? ''));
    expect(missing).toEqual([]);
  });
});
