import { PagePlaceholder } from '../../components';

/** pages.map: placeholder until the feature issue builds its content. */
export default function MapPage() {
  return <PagePlaceholder titleKey="pages.map" page="map" />;
}
