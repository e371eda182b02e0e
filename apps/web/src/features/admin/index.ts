/** What the app shell takes from the admin panel: the public settings (site name, default language). */
export { useSiteSettings } from './use-site-settings';
