import Card from 'antd/es/card';
import Space from 'antd/es/space';
import Tabs from 'antd/es/tabs';
import { useTranslation } from 'react-i18next';
import { useIsAdmin } from '../../lib/permissions';
import { useSettings } from './api/settings';
import { AuditLog } from './components/audit-log';
import { Co2Factors } from './components/co2-factors';
import { BackupPanel } from './components/backup-panel';
import { CollectionHealth } from './components/collection-health';
import { IngestKeys } from './components/ingest-keys';
import { LogoSettings } from './components/logo-settings';
import { Sessions } from './components/sessions';
import { SettingsForm } from './components/settings-form';
import './admin.css';

/**
 * /admin-panel (page admin_panel): settings, audit log, data collection health, ingest keys, sessions,
 * backup. A company user given the page sees only the scoped tabs (health and keys); the rest is the
 * administrator's.
 */
export default function AdminPage() {
  const { t } = useTranslation();
  const isAdmin = useIsAdmin();
  const settings = useSettings(isAdmin);
  const tabs = [
    ...(isAdmin
      ? [
          {
            key: 'settings',
            label: t('admin.tabs.settings'),
            // The logo and the CO₂ factors are saved on their own, outside the settings form.
            children: (
              <Space direction="vertical" size="middle" style={{ width: '100%' }}>
                <LogoSettings />
                {settings.data && <SettingsForm settings={settings.data} />}
                <Co2Factors />
              </Space>
            ),
          },
          { key: 'audit', label: t('admin.tabs.audit'), children: <AuditLog /> },
        ]
      : []),
    { key: 'health', label: t('admin.tabs.health'), children: <CollectionHealth /> },
    { key: 'keys', label: t('admin.tabs.keys'), children: <IngestKeys /> },
    ...(isAdmin
      ? [
          { key: 'sessions', label: t('admin.tabs.sessions'), children: <Sessions /> },
          { key: 'backup', label: t('admin.tabs.backup'), children: <BackupPanel /> },
        ]
      : []),
  ];
  return (
    <div data-testid="admin-panel">
      <Card title={t('pages.adminPanel')} className="admin-panel">
        {/* Only the open tab is mounted: each tab's calls run when it is shown. */}
        <Tabs items={tabs} destroyOnHidden data-testid="admin-tabs" />
      </Card>
    </div>
  );
}
