import type { TranslationKey } from '../lib/i18n-keys';

/**
 * Route data read by the layout: the i18n key of the page title. Its own module so that the layout can
 * read it without importing the router, which (through the guards and the page registry) imports the
 * layout.
 */
export interface RouteHandle {
  titleKey: TranslationKey;
}
