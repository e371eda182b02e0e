import { PagePlaceholder } from '../../components';

/** pages.customizedAlarms: placeholder until the feature issue builds its content. */
export default function CustomizedAlarmsPage() {
  return <PagePlaceholder titleKey="pages.customizedAlarms" page="customized-alarms" />;
}
