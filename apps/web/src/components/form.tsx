import type { ComponentProps, ReactElement } from 'react';
// eslint-disable-next-line no-restricted-imports -- the one place that wraps Ant Design's Form
import AntdForm from 'antd/es/form';

type AntdFormProps<Values> = ComponentProps<typeof AntdForm<Values>>;

/**
 * Ant Design's Form with the browser's own validation turned off. Without `noValidate`, a native
 * constraint (type=email, required, pattern, min/max) makes the browser refuse the submission and show
 * its own bubble in the browser's language, before our translated rules run (spec §5). Every form of the
 * console is this one; ESLint forbids importing Ant Design's Form directly.
 */
function NoValidateForm<Values = unknown>(props: AntdFormProps<Values>): ReactElement {
  return <AntdForm<Values> {...props} noValidate />;
}

/** `Form` with Ant Design's statics (`Form.Item`, `Form.useForm`…), used exactly like Ant Design's. */
export const Form = Object.assign(NoValidateForm, {
  Item: AntdForm.Item,
  List: AntdForm.List,
  ErrorList: AntdForm.ErrorList,
  Provider: AntdForm.Provider,
  useForm: AntdForm.useForm,
  useFormInstance: AntdForm.useFormInstance,
  useWatch: AntdForm.useWatch,
});
