import { PagePlaceholder } from '../../components';

/** pages.fault: placeholder until the feature issue builds its content. */
export default function FaultsPage() {
  return <PagePlaceholder titleKey="pages.fault" page="fault" />;
}
