import { PagePlaceholder } from '../../components';

/** pages.plantDetail: placeholder until the feature issue builds its content. */
export default function PlantDetailPage() {
  return <PagePlaceholder titleKey="pages.plantDetail" page="santral-detay" />;
}
