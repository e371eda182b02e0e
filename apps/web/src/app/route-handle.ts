/**
 * Route data read by the layout: the i18n key of the page title, as the shared route table names it. The
 * layout checks it against the loaded texts when it renders: the router is built before the console's
 * texts have loaded, so a check here would find only the logged-out groups. Its own module so that the layout can
 * read it without importing the router, which (through the guards and the page registry) imports the
 * layout.
 */
export interface RouteHandle {
  titleKey: string;
}
