/** What the app shell takes from the admin panel: the public settings (site name, logo, default language). */
export { useSiteSettings } from './use-site-settings';
