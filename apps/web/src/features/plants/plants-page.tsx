import { PagePlaceholder } from '../../components';

/** pages.plants: placeholder until the feature issue builds its content. */
export default function PlantsPage() {
  return <PagePlaceholder titleKey="pages.plants" page="santraller" />;
}
