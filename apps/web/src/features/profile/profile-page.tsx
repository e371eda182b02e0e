import Avatar from 'antd/es/avatar';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Col from 'antd/es/col';
import Descriptions from 'antd/es/descriptions';
import Empty from 'antd/es/empty';
import { Form } from '../../components';
import Input from 'antd/es/input';
import Row from 'antd/es/row';
import Space from 'antd/es/space';
import Typography from 'antd/es/typography';
import theme from 'antd/es/theme';
import SaveOutlined from '@ant-design/icons/SaveOutlined';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { V, profileBody, type ProfileBody, type User } from '@solar/shared';
import { applyProblemToForm, zodRule } from '../../lib/form-rules';
import { notify } from '../../lib/notify';
import { refreshSession } from '../../lib/session';
import { useSession } from '../../lib/session-store';
import { fetchUser, updateProfile } from './api/profile-api';
import { PasswordForm } from './components/password-form';
import { userKeys } from '../users';

const FIELDS = ['name', 'surname', 'username', 'email', 'telephone'] as const;
/**
 * Spec §2: username and email cannot be edited here. The own email can, since a change needs the current
 * password and takes effect only once confirmed by mail (docs/security.md, "Accounts and sessions").
 */
const disabledFields = (isSelf: boolean) => new Set<string>(isSelf ? ['username'] : ['username', 'email']);
const sameEmail = (a: string | undefined, b: string) => (a ?? '').trim().toLowerCase() === b.toLowerCase();

/** The profile card and edit form of one user. */
function ProfileView({ user, isSelf }: { user: User; isSelf: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const [form] = Form.useForm<ProfileBody>();
  const disabled = disabledFields(isSelf);
  const emailValue = Form.useWatch('email', form);
  const emailChanged = isSelf && emailValue !== undefined && !sameEmail(emailValue, user.email);
  const mutation = useMutation({
    mutationFn: async (body: ProfileBody) => {
      const saved = await updateProfile(user.id, body);
      // Spec §2: refresh the user data (and the token it brings) after saving.
      if (isSelf) await refreshSession();
      return saved;
    },
  });

  const onFinish = (values: ProfileBody) => {
    const email = isSelf ? values.email : user.email;
    const body = profileBody.parse({
      ...values,
      username: user.username,
      email,
      // Sent only with a new own email: nothing else needs it.
      current_password: isSelf && !sameEmail(email, user.email) ? values.current_password : undefined,
    });
    mutation.mutate(body, {
      onSuccess: (saved) => {
        if (saved.pending_email) notify.info(t('profile.emailPending', { email: saved.pending_email }));
        void navigate('/');
      },
      onError: (error) => applyProblemToForm(form, error, t),
    });
  };

  return (
    <Row gutter={[24, 24]} className="profile-page" data-testid="profile-page">
      <Col xs={24} lg={8}>
        <Card data-testid="profile-card">
          <Space orientation="vertical" align="center" className="profile-card-body">
            <Avatar size={88} style={{ backgroundColor: token.colorPrimary, fontSize: 32 }}>
              {`${user.name.charAt(0)}${user.surname.charAt(0)}`.toLocaleUpperCase()}
            </Avatar>
            <Typography.Title level={4} className="profile-card-name" data-testid="profile-card-name">
              {user.name} {user.surname}
            </Typography.Title>
            <Typography.Text type="secondary" data-testid="profile-card-email">
              {user.email}
            </Typography.Text>
          </Space>
          <Descriptions
            column={1}
            size="small"
            className="profile-card-details"
            items={[
              { key: 'username', label: t('profile.username'), children: user.username },
              { key: 'telephone', label: t('profile.telephone'), children: user.telephone },
              { key: 'role', label: t('profile.role'), children: user.role_name },
            ]}
          />
        </Card>
      </Col>
      <Col xs={24} lg={16}>
        <Card title={t('profile.details')}>
          <Form<ProfileBody>
            form={form}
            layout="vertical"
            initialValues={{
              name: user.name,
              surname: user.surname,
              username: user.username,
              email: user.email,
              telephone: user.telephone,
            }}
            onFinish={onFinish}
            data-testid="profile-form"
          >
            <Row gutter={16}>
              {FIELDS.map((field) => (
                <Col xs={24} md={12} key={field}>
                  <Form.Item
                    name={field}
                    label={t(`profile.${field}`)}
                    rules={disabled.has(field) ? [] : [zodRule(profileBody.shape[field], t)]}
                  >
                    <Input
                      disabled={disabled.has(field)}
                      type={field === 'email' ? 'email' : field === 'telephone' ? 'tel' : 'text'}
                      autoComplete={field === 'telephone' ? 'tel' : 'off'}
                      data-testid={`profile-${field}`}
                    />
                  </Form.Item>
                </Col>
              ))}
              {isSelf && (
                <Col xs={24} md={12}>
                  <Form.Item
                    name="current_password"
                    label={t('profile.currentPassword')}
                    extra={t('profile.currentPasswordHint')}
                    rules={[{ required: emailChanged, message: t(V.required) }]}
                  >
                    <Input.Password autoComplete="current-password" data-testid="profile-current_password" />
                  </Form.Item>
                </Col>
              )}
            </Row>
            <div className="profile-form-footer">
              <Button onClick={() => form.resetFields()} data-testid="profile-cancel">
                {t('common.cancel')}
              </Button>
              <Button
                type="primary"
                htmlType="submit"
                icon={<SaveOutlined />}
                loading={mutation.isPending}
                data-testid="profile-save"
              >
                {t('profile.save')}
              </Button>
            </div>
          </Form>
        </Card>
        {isSelf && <PasswordForm userId={user.id} />}
      </Col>
    </Row>
  );
}

/** Another user's profile, loaded by id. */
function OtherProfile({ id }: { id: number }) {
  const query = useQuery({ queryKey: userKeys.detail(id), queryFn: () => fetchUser(id) });
  if (!query.data) return query.isError ? <Empty data-testid="profile-unavailable" /> : null;
  return <ProfileView user={query.data} isSelf={false} />;
}

/** /profile/:userId (spec §2): open to every logged-in user. */
export default function ProfilePage() {
  const me = useSession((s) => s.user);
  const id = Number(useParams().userId);
  if (!me) return null;
  if (id === me.id) return <ProfileView key={`${me.id}`} user={me} isSelf />;
  if (!Number.isInteger(id) || id <= 0) return <Empty data-testid="profile-unavailable" />;
  return <OtherProfile id={id} />;
}
