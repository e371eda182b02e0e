import { useRef, useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import Typography from 'antd/es/typography';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import UploadOutlined from '@ant-design/icons/UploadOutlined';
import { useTranslation } from 'react-i18next';
import { LOGO_MAX_BYTES, LOGO_TYPES } from '@solar/shared';
import { SiteMark } from '../../../components';
import { errorMessageOf } from '../../../lib/api-errors';
import { useRemoveLogo, useUploadLogo } from '../api/branding';
import { usePublicSettings } from '../api/settings';

/**
 * The site's logo: a preview as the header shows it, upload (sent at once, not with the settings form)
 * and removal. The server decides the type from the bytes; the checks here only spare a useless upload.
 */
export function LogoSettings() {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const current = usePublicSettings().data?.logo_url ?? null;
  const upload = useUploadLogo();
  const remove = useRemoveLogo();
  const [error, setError] = useState<string | null>(null);

  const onFile = (file: File | undefined) => {
    if (!file) return;
    setError(null);
    if (file.size > LOGO_MAX_BYTES) {
      setError(t('errors.logoTooLarge'));
      return;
    }
    upload.mutate(file, { onError: (e) => setError(errorMessageOf(e, t)) });
  };

  return (
    <Card size="small" title={t('admin.settings.logo')} data-testid="logo-settings">
      <input
        ref={input}
        type="file"
        accept={LOGO_TYPES.join(',')}
        hidden
        onChange={(e) => {
          const file = e.target.files?.[0];
          // Cleared, so that choosing the same file again uploads again.
          e.target.value = '';
          onFile(file);
        }}
        data-testid="logo-file"
      />
      <Space direction="vertical" size="small" style={{ width: '100%' }}>
        <div className="admin-logo-preview" data-testid="logo-preview">
          <SiteMark logoUrl={current} size={48} label={t('admin.settings.logo')} />
          {!current && <Typography.Text type="secondary">{t('admin.settings.logoNone')}</Typography.Text>}
        </div>
        <Typography.Text type="secondary">{t('admin.settings.logoHint')}</Typography.Text>
        {error && <Alert type="error" showIcon message={error} data-testid="logo-error" />}
        <Space wrap>
          <Button
            icon={<UploadOutlined />}
            onClick={() => input.current?.click()}
            loading={upload.isPending}
            data-testid="logo-upload"
          >
            {t('admin.settings.logoUpload')}
          </Button>
          {current && (
            <Popconfirm
              title={t('admin.settings.logoRemoveConfirm')}
              okText={t('admin.settings.logoRemove')}
              cancelText={t('common.cancel')}
              onConfirm={() => remove.mutate(undefined, { onError: (e) => setError(errorMessageOf(e, t)) })}
            >
              <Button danger icon={<DeleteOutlined />} loading={remove.isPending} data-testid="logo-remove">
                {t('admin.settings.logoRemove')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      </Space>
    </Card>
  );
}
