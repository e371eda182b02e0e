import Button from 'antd/es/button';
import theme from 'antd/es/theme';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';

/**
 * 404 page (spec §2): title 'Sayfa Bulunamadı' and a back button. Drawn without antd's Result, whose
 * illustrations would weigh on every page's first load.
 */
export function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { token } = theme.useToken();
  // Back within the console; when the 404 is the first page of the visit (key 'default': a link
  // opened from elsewhere), going back would leave the console, so go to the login page instead.
  const goBack = () => {
    if (location.key !== 'default') void navigate(-1);
    else void navigate('/login');
  };
  return (
    <div className="not-found" data-testid="not-found" style={{ background: token.colorBgLayout }}>
      <div className="not-found-code" style={{ color: token.colorPrimaryText }} aria-hidden="true">
        404
      </div>
      <h1 className="not-found-title" data-testid="not-found-title" style={{ color: token.colorTextHeading }}>
        {t('pages.notFound')}
      </h1>
      <p className="not-found-text" style={{ color: token.colorTextSecondary }}>
        {t('notFound.description')}
      </p>
      <Button type="primary" size="large" onClick={goBack} data-testid="not-found-back">
        {t('common.back')}
      </Button>
    </div>
  );
}
