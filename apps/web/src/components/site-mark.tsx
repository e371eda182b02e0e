import { useState } from 'react';
import { BrandMark } from './brand-mark';

interface SiteMarkProps {
  /** The admin's logo (GET settings/public `logo_url`); absent: the built-in mark. */
  logoUrl: string | null | undefined;
  /** Height in px; a wide logo keeps its proportions up to `maxWidth` (default four times the height). */
  size: number;
  maxWidth?: number;
  /** The logo's text alternative: empty where the site name stands beside it. */
  label?: string;
}

/** The site's logo when the admin has set one, else the console's built-in mark (also if it fails to load). */
export function SiteMark({ logoUrl, size, maxWidth = size * 4, label = '' }: SiteMarkProps) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!logoUrl || failed === logoUrl) return <BrandMark size={size} />;
  return (
    <img
      src={logoUrl}
      alt={label}
      className="site-logo"
      style={{ height: size, maxWidth }}
      onError={() => setFailed(logoUrl)}
      data-testid="site-logo"
    />
  );
}
