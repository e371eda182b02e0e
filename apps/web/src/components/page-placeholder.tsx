import Empty from 'antd/es/empty';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import type { TranslationKey } from '../lib/i18n-keys';

interface PagePlaceholderProps {
  /** i18n key of the page title. */
  titleKey: TranslationKey;
  /** Short page name for tests (`data-page`). */
  page: string;
}

/** Empty state of a page whose content a later issue builds: its translated title and a short note. */
export function PagePlaceholder({ titleKey, page }: PagePlaceholderProps) {
  const { t } = useTranslation();
  return (
    <div className="page-placeholder" data-testid="empty-page" data-page={page}>
      <Empty
        description={
          <>
            <Typography.Title level={4} className="page-placeholder-title">
              {t(titleKey)}
            </Typography.Title>
            <Typography.Text type="secondary">{t('common.comingSoon')}</Typography.Text>
          </>
        }
      />
    </div>
  );
}
