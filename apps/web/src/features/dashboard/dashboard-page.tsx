import { PagePlaceholder } from '../../components';

/** pages.dashboard: placeholder until the feature issue builds its content. */
export default function DashboardPage() {
  return <PagePlaceholder titleKey="pages.dashboard" page="dashboard" />;
}
