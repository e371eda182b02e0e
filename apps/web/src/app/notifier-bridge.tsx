import { useEffect } from 'react';
import message from 'antd/es/message';
import { registerNotifier } from '../lib/notify';

/**
 * Hands Ant Design's message API to code outside React (the API client's toasts). The hook form keeps
 * the theme and locale of the ConfigProvider around it.
 */
export default function NotifierBridge() {
  const [messageApi, contextHolder] = message.useMessage();
  useEffect(() => {
    registerNotifier(messageApi);
    return () => registerNotifier(null);
  }, [messageApi]);
  return contextHolder;
}
