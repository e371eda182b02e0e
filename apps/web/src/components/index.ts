/** Shared UI pieces; features import them from here. */
export { BrandMark } from './brand-mark';
export { EntityFormDrawer, TextField, useEntityForm, type EntityForm } from './entity-form';
export { Form } from './form';
export { FullPageSpin } from './full-page-spin';
export { InlineMessage } from './inline-message';
export { LanguageButtons } from './language-buttons';
export { LanguageSwitcher } from './language-switcher';
export { LoadingOverlay } from './loading-overlay';
export { LoadingSpin } from './loading-spin';
export { NotFoundPage } from './not-found-page';
export { PagePlaceholder } from './page-placeholder';
export { SiteMark } from './site-mark';
export { ThemeToggle } from './theme-toggle';
export { ActiveFilterSelect, ActiveTag, ManagementCard, RowActions } from './management';
export {
  BarChart,
  OptionChart,
  TelemetryChart,
  type BarChartBar,
  type BarChartProps,
  type ChartBand,
  type ChartOption,
  type OptionChartProps,
  type TelemetryChartProps,
} from './telemetry-chart';
export { PlantDayPicker, type PlantDayPickerProps } from './plant-day-picker';
