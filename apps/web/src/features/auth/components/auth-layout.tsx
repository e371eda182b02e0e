import type { ReactNode } from 'react';
import theme from 'antd/es/theme';
import CheckCircleFilled from '@ant-design/icons/CheckCircleFilled';
import { useTranslation } from 'react-i18next';
import { LanguageButtons, SiteMark, ThemeToggle } from '../../../components';
import { usePreferences } from '../../../lib/preferences-store';
import { usePublicLogoUrl } from '../../../lib/public-logo';
import { LoginSlider } from './login-slider';

const HIGHLIGHTS = ['auth.highlights.live', 'auth.highlights.alarms', 'auth.highlights.access'] as const;

interface AuthLayoutProps {
  title: string;
  subtitle?: string;
  children: ReactNode;
  testId: string;
}

/**
 * Frame of the logged-out pages: the slider behind, the product pitch, and a panel holding the form.
 * Plain elements coloured from the theme tokens keep Card and Typography out of the login bundle.
 */
export function AuthLayout({ title, subtitle, children, testId }: AuthLayoutProps) {
  const { t } = useTranslation();
  const mode = usePreferences((s) => s.theme);
  const { token } = theme.useToken();
  // The admin's logo instead of the built-in mark (the product name stays: it says what this is).
  const logoUrl = usePublicLogoUrl();
  return (
    <div className={`auth-page auth-page-${mode}`} data-testid={testId}>
      <LoginSlider />
      <div className="auth-toolbar">
        <ThemeToggle />
        <LanguageButtons />
      </div>
      <main className="auth-main">
        <section className="auth-pitch">
          <div className="auth-brand">
            <SiteMark logoUrl={logoUrl} size={44} />
            <span>{t('app.name')}</span>
          </div>
          <p className="auth-tagline">{t('auth.tagline')}</p>
          <ul className="auth-highlights">
            {HIGHLIGHTS.map((key) => (
              <li key={key}>
                <CheckCircleFilled /> {t(key)}
              </li>
            ))}
          </ul>
        </section>
        <div className="auth-card" style={{ color: token.colorText }}>
          <div className="auth-card-brand">
            <SiteMark logoUrl={logoUrl} size={36} />
            <span>{t('app.name')}</span>
          </div>
          <div className="auth-card-head">
            <h1 className="auth-card-title" style={{ color: token.colorTextHeading }}>
              {title}
            </h1>
            {subtitle && (
              <p className="auth-card-subtitle" style={{ color: token.colorTextSecondary }}>
                {subtitle}
              </p>
            )}
          </div>
          {children}
        </div>
      </main>
    </div>
  );
}
