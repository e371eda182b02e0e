import type { ReactNode } from 'react';
import theme from 'antd/es/theme';
import CheckCircleFilled from '@ant-design/icons/CheckCircleFilled';
import CloseCircleFilled from '@ant-design/icons/CloseCircleFilled';

interface InlineMessageProps {
  type: 'success' | 'error';
  children: ReactNode;
  'data-testid'?: string;
}

/**
 * A one-line success or error message in Ant Design's alert colours, for the logged-out pages (the
 * Alert component itself would add weight to the login bundle).
 */
export function InlineMessage({ type, children, 'data-testid': testId }: InlineMessageProps) {
  const { token } = theme.useToken();
  const error = type === 'error';
  return (
    <div
      className="inline-message"
      role={error ? 'alert' : 'status'}
      data-testid={testId}
      data-type={type}
      style={{
        color: token.colorText,
        background: error ? token.colorErrorBg : token.colorSuccessBg,
        border: `1px solid ${error ? token.colorErrorBorder : token.colorSuccessBorder}`,
        borderRadius: token.borderRadiusLG,
      }}
    >
      <span className="inline-message-icon" style={{ color: error ? token.colorError : token.colorSuccess }}>
        {error ? <CloseCircleFilled /> : <CheckCircleFilled />}
      </span>
      <span>{children}</span>
    </div>
  );
}
