import { PagePlaceholder } from '../../components';

/** pages.report: placeholder until the feature issue builds its content. */
export default function ReportsPage() {
  return <PagePlaceholder titleKey="pages.report" page="report" />;
}
