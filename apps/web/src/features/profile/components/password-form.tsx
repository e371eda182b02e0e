import { useState } from 'react';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Col from 'antd/es/col';
import Input from 'antd/es/input';
import Row from 'antd/es/row';
import Typography from 'antd/es/typography';
import LockOutlined from '@ant-design/icons/LockOutlined';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { V, passwordBody } from '@solar/shared';
import { Form, InlineMessage } from '../../../components';
import { reportSaveError } from '../../../lib/api-errors';
import { sameAsRule, zodRule } from '../../../lib/form-rules';
import { useSession } from '../../../lib/session-store';
import { changeOwnPassword } from '../api/profile-api';

interface PasswordValues {
  current_password: string;
  password: string;
  repeat: string;
}

/**
 * The own password: the current one, the new one twice. A wrong current password is shown on its field
 * (errors.currentPasswordWrong). The change ends every sign-in of the user, this one too (the token's
 * version rises, docs/security.md), so the console signs out and the login page confirms the change.
 */
export function PasswordForm({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<PasswordValues>();
  const [failure, setFailure] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (values: PasswordValues) =>
      changeOwnPassword(userId, { current_password: values.current_password, password: values.password }),
  });

  const onFinish = (values: PasswordValues) => {
    setFailure(null);
    mutation.mutate(values, {
      onSuccess: () => {
        // The server has already refused this token: end the session here before anything asks with it.
        useSession.getState().logout();
        queryClient.clear();
        void navigate('/login', { replace: true, state: { flash: 'profile.password.changed' } });
      },
      onError: (error) => reportSaveError(form, error, t, setFailure),
    });
  };

  return (
    <Card title={t('profile.password.title')} className="profile-password-card">
      <Form<PasswordValues>
        form={form}
        layout="vertical"
        onFinish={onFinish}
        initialValues={{ current_password: '', password: '', repeat: '' }}
        data-testid="password-form"
      >
        <Typography.Paragraph type="secondary">{t('profile.password.hint')}</Typography.Paragraph>
        {failure && (
          <InlineMessage type="error" data-testid="password-failure">
            {failure}
          </InlineMessage>
        )}
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              name="current_password"
              label={t('profile.currentPassword')}
              rules={[
                { required: true, message: t(V.required) },
                zodRule(passwordBody.shape.current_password, t),
              ]}
            >
              <Input.Password autoComplete="current-password" data-testid="password-current" />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              name="password"
              label={t('profile.password.newPassword')}
              rules={[zodRule(passwordBody.shape.password, t)]}
            >
              <Input.Password autoComplete="new-password" data-testid="password-new" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="repeat"
              label={t('profile.password.repeatPassword')}
              dependencies={['password']}
              rules={[
                { required: true, message: t(V.required) },
                sameAsRule(() => form.getFieldValue('password'), t),
              ]}
            >
              <Input.Password autoComplete="new-password" data-testid="password-repeat" />
            </Form.Item>
          </Col>
        </Row>
        <div className="profile-form-footer">
          <Button
            type="primary"
            htmlType="submit"
            icon={<LockOutlined />}
            loading={mutation.isPending}
            data-testid="password-submit"
          >
            {t('profile.password.submit')}
          </Button>
        </div>
      </Form>
    </Card>
  );
}
