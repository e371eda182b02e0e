/**
 * The settings module's public face: code outside modules/settings/ imports only from here
 * (docs/architecture.md, "Module boundaries").
 */
export { createSettingsMailer } from './settings-mailer';
export { SettingsService, defaultSettings } from './settings.service';
