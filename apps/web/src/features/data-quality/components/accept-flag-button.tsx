import { useState } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { dataQualityAcceptBody, type DataQualityFlag } from '@solar/shared';
import { useAcceptFlag } from '../api/accept-flag';

/** "Accept" with a note in a dialog: the operator says why the data is right (audited on the server). */
export function AcceptFlagButton({ flag }: { flag: DataQualityFlag }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState('');
  const accept = useAcceptFlag();
  const valid = dataQualityAcceptBody.safeParse({ note }).success;
  return (
    <>
      <Button size="small" data-testid={`accept-flag-${flag.id}`} onClick={() => setOpen(true)}>
        {t('dataQuality.accept')}
      </Button>
      <Modal
        open={open}
        title={t('dataQuality.acceptTitle')}
        okText={t('dataQuality.accept')}
        cancelText={t('common.cancel')}
        okButtonProps={{ disabled: !valid, loading: accept.isPending }}
        onCancel={() => setOpen(false)}
        onOk={() =>
          accept.mutate(
            { id: flag.id, note: note.trim() },
            {
              onSuccess: () => {
                setOpen(false);
                setNote('');
              },
            },
          )
        }
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{t('dataQuality.acceptHint')}</Typography.Paragraph>
        <Input.TextArea
          aria-label={t('dataQuality.note')}
          placeholder={t('dataQuality.note')}
          data-testid="accept-flag-note"
          value={note}
          maxLength={500}
          rows={3}
          onChange={(e) => setNote(e.target.value)}
        />
      </Modal>
    </>
  );
}
