import { useState } from 'react';
import Button from 'antd/es/button';
import Empty from 'antd/es/empty';
import Input from 'antd/es/input';
import { useTranslation } from 'react-i18next';
import { faultCommentBody, type FaultComment } from '@solar/shared';
import { useAddComment } from '../api/add-comment';
import { PlantTime } from '../../../lib/plant-time-view';
import { knownKey } from '../../../lib/i18n-keys';

/** The comment thread of a fault, oldest first, with a box to add one. */
export function FaultComments({
  faultId,
  comments,
  canComment,
  timeZone,
}: {
  faultId: number;
  comments: readonly FaultComment[];
  canComment: boolean;
  /** The plant's zone: comment times are on its clock. */
  timeZone: string;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useAddComment(faultId);

  const submit = () => {
    const parsed = faultCommentBody.shape.body.safeParse(text);
    if (!parsed.success) {
      setError(t(knownKey(parsed.error.issues[0]?.message, 'validation.invalidValue')));
      return;
    }
    setError(null);
    add.mutate(parsed.data, { onSuccess: () => setText('') });
  };

  return (
    <div className="fault-comments" data-testid="fault-comments">
      {comments.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('faults.page.noComments')} />
      ) : (
        comments.map((c) => (
          <div key={c.id} className="fault-comment" data-testid="fault-comment">
            <div className="fault-comment-meta">
              <strong>{c.user_name ?? t('faults.page.system')}</strong>
              <PlantTime at={c.created_at} zone={timeZone} />
            </div>
            <div className="fault-comment-body">{c.body}</div>
          </div>
        ))
      )}
      {canComment && (
        <div className="fault-comment-add">
          <Input.TextArea
            rows={3}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={t('faults.page.commentPlaceholder')}
            status={error ? 'error' : undefined}
            data-testid="fault-comment-input"
          />
          {error && (
            <div className="fault-comment-error" data-testid="fault-comment-error">
              {error}
            </div>
          )}
          <Button type="primary" onClick={submit} loading={add.isPending} data-testid="fault-comment-add">
            {t('faults.page.addComment')}
          </Button>
        </div>
      )}
    </div>
  );
}
