import { PagePlaceholder } from '../../components';

/** pages.adminPanel: placeholder until the feature issue builds its content. */
export default function AdminPage() {
  return <PagePlaceholder titleKey="pages.adminPanel" page="admin-panel" />;
}
