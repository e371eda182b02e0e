import { useEffect } from 'react';
import message from 'antd/es/message';
import { registerNotifier, type Notifier } from '../lib/notify';

type MessageApi = ReturnType<typeof message.useMessage>[0];

/**
 * The same text shown again while it is still up replaces it (one key per kind and text) instead of
 * stacking: one save that makes two calls (a plant and its budget) says "done" once.
 */
function collapsing(messageApi: MessageApi): Notifier {
  const show = (type: 'success' | 'error' | 'info') => (content: string) =>
    messageApi.open({ type, content, key: `${type}:${content}` });
  return { success: show('success'), error: show('error'), info: show('info') };
}

/**
 * Hands Ant Design's message API to code outside React (the API client's toasts). The hook form keeps
 * the theme and locale of the ConfigProvider around it.
 */
export default function NotifierBridge() {
  const [messageApi, contextHolder] = message.useMessage();
  useEffect(() => {
    registerNotifier(collapsing(messageApi));
    return () => registerNotifier(null);
  }, [messageApi]);
  return contextHolder;
}
