import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import Spin from 'antd/es/spin';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import type { AdminSession } from '@solar/shared';
import { useCan } from '../../../lib/permissions';
import { useRevokeSessions, useSessions } from '../api/sessions';

interface UserSessions {
  userId: number;
  name: string;
  email: string;
  sessions: AdminSession[];
}

/** The sessions grouped per user, in the server's order (the most recently used first). */
function byUser(items: readonly AdminSession[]): UserSessions[] {
  const groups = new Map<number, UserSessions>();
  for (const s of items) {
    let group = groups.get(s.user_id);
    if (!group) {
      group = { userId: s.user_id, name: s.user_name, email: s.email, sessions: [] };
      groups.set(s.user_id, group);
    }
    group.sessions.push(s);
  }
  return [...groups.values()];
}

/**
 * Who is signed in where: one card per user with their live sessions (created, last seen, IP, browser),
 * and "revoke all sessions", which ends their tokens and live streams at once. Cards stack on a phone.
 */
export function Sessions() {
  const { t, i18n } = useTranslation();
  const can = useCan('admin_panel');
  const query = useSessions();
  const revoke = useRevokeSessions();
  const locale = i18n.language.replace('_', '-');
  const when = (iso: string) => new Date(iso).toLocaleString(locale);

  if (query.isPending) return <Spin />;
  const users = byUser(query.data?.items ?? []);
  if (users.length === 0) return <Empty description={t('admin.sessions.none')} />;

  return (
    <Space direction="vertical" size="middle" className="admin-sessions" data-testid="sessions-list">
      {users.map((u) => (
        <Card
          key={u.userId}
          size="small"
          data-testid={`sessions-user-${u.userId}`}
          title={
            <span className="admin-sessions-user">
              {u.name} <Typography.Text type="secondary">{u.email}</Typography.Text>
            </span>
          }
          extra={
            can.update && (
              <Popconfirm
                title={t('admin.sessions.revokeConfirm', { name: u.name })}
                okText={t('admin.sessions.revokeAll')}
                cancelText={t('common.cancel')}
                onConfirm={() => revoke.mutate(u.userId)}
              >
                <Button danger size="small" data-testid={`revoke-sessions-${u.userId}`}>
                  {t('admin.sessions.revokeAll')}
                </Button>
              </Popconfirm>
            )
          }
        >
          <Typography.Text type="secondary">
            {t('admin.sessions.count', { count: u.sessions.length })}
          </Typography.Text>
          <ul className="admin-sessions-items">
            {u.sessions.map((s) => (
              <li key={s.id} data-testid="session-item">
                <div>
                  <strong>{s.user_agent ?? t('admin.sessions.unknownClient')}</strong>
                  {s.current && (
                    <Tag color="green" className="admin-sessions-current">
                      {t('admin.sessions.current')}
                    </Tag>
                  )}
                </div>
                <Typography.Text type="secondary">
                  {t('admin.sessions.ip')}: {s.ip ?? '—'} · {t('admin.sessions.lastSeen')}:{' '}
                  {when(s.last_seen_at)} · {t('admin.sessions.created')}: {when(s.created_at)} ·{' '}
                  {t('admin.sessions.expires')}: {when(s.expires_at)}
                </Typography.Text>
              </li>
            ))}
          </ul>
        </Card>
      ))}
    </Space>
  );
}
