import { PagePlaceholder } from '../../components';

/** pages.inverterDetail: placeholder until the feature issue builds its content. */
export default function InverterDetailPage() {
  return <PagePlaceholder titleKey="pages.inverterDetail" page="inverter-detay" />;
}
