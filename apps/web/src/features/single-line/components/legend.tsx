import { useTranslation } from 'react-i18next';
import { OPERATING_STATUSES } from '@solar/shared';
import { prefixedKey } from '../../../lib/i18n-keys';
import { StatusGlyph } from './symbols';

/** What the colours and glyphs of the diagram mean: each status with its glyph, colour and word. */
export function Legend() {
  const { t } = useTranslation();
  return (
    <section className="sl-legend" aria-label={t('singleLine.legend')} data-testid="sl-legend">
      <span className="sl-legend-title">{t('singleLine.legend')}:</span>
      <ul>
        {OPERATING_STATUSES.map((status) => (
          <li key={status} data-status={status}>
            <svg width={16} height={16} viewBox="-8 -8 16 16" aria-hidden="true">
              <StatusGlyph status={status} />
            </svg>
            <b>{t(prefixedKey('plantView.status', status))}</b>
            <span className="sl-legend-note">{t(prefixedKey('singleLine.statusNote', status))}</span>
          </li>
        ))}
        <li>
          <svg width={28} height={16} aria-hidden="true">
            <line className="sl-edge sl-edge-auxiliary" x1={2} y1={8} x2={26} y2={8} />
          </svg>
          <span className="sl-legend-note">{t('singleLine.auxiliaryNote')}</span>
        </li>
      </ul>
    </section>
  );
}
