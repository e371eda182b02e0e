import { PagePlaceholder } from '../../components';

/** pages.faultDetail: placeholder until the feature issue builds its content. */
export default function FaultDetailPage() {
  return <PagePlaceholder titleKey="pages.faultDetail" page="fault-detail" />;
}
