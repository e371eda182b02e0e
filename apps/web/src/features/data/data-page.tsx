import { PagePlaceholder } from '../../components';

/** pages.data: placeholder until the feature issue builds its content. */
export default function DataPage() {
  return <PagePlaceholder titleKey="pages.data" page="data" />;
}
