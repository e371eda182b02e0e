import { PagePlaceholder } from '../../components';

/** pages.cameraDetail: placeholder until the feature issue builds its content. */
export default function CameraDetailPage() {
  return <PagePlaceholder titleKey="pages.cameraDetail" page="kamera-detay" />;
}
