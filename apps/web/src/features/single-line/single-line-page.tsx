import { PagePlaceholder } from '../../components';

/** pages.singleLine: placeholder until the feature issue builds its content. */
export default function SingleLinePage() {
  return <PagePlaceholder titleKey="pages.singleLine" page="single-line" />;
}
