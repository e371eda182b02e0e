import { PagePlaceholder } from '../../components';

/** pages.alarms: placeholder until the feature issue builds its content. */
export default function AlarmsPage() {
  return <PagePlaceholder titleKey="pages.alarms" page="alarms" />;
}
