import { createContext, useContext, useState, type ReactNode } from 'react';
import Input from 'antd/es/input';
import type { FormInstance } from 'antd/es/form';
import type { ZodType } from 'zod';
import { useTranslation } from 'react-i18next';
import { reportSaveError } from '../lib/api-errors';
import { schemaRule } from '../lib/schema-rule';
import { Form } from './form';
import { FormDrawer } from './management';

/** The part of a TanStack mutation a form save needs. */
interface SaveMutation<Variables, Data> {
  mutate: (
    variables: Variables,
    options: { onSuccess: (data: Data) => void; onError: (error: unknown) => void },
  ) => void;
}

/** The state of one entity form in a drawer: see useEntityForm. */
export interface EntityForm<Values> {
  form: FormInstance<Values>;
  /** The translated reason the last save failed that no field shows (shown above the form). */
  error: string | null;
  setError: (message: string | null) => void;
  /**
   * Saves: clears the last failure, then runs the mutation; a 400/409 problem puts its messages on
   * the fields, any other failure becomes `error`.
   */
  save: <Variables, Data>(
    mutation: SaveMutation<Variables, Data>,
    variables: Variables,
    onSuccess: (data: Data) => void,
  ) => void;
}

/**
 * The form instance, save and failure of a create/edit form shown in EntityFormDrawer. The failure
 * lives here, not in the page: the page keys the form by its editor session, so each opening starts
 * without one.
 */
export function useEntityForm<Values>(): EntityForm<Values> {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string | null>(null);
  return {
    form,
    error,
    setError,
    save: (mutation, variables, onSuccess) => {
      setError(null);
      mutation.mutate(variables, { onSuccess, onError: (e) => reportSaveError(form, e, t, setError) });
    },
  };
}

/** The resource of the enclosing EntityFormDrawer: TextField builds its test id from it. */
const ResourceContext = createContext('');

type FormProps<Values> = Parameters<typeof Form<Values>>[0];

interface EntityFormDrawerProps<Values> {
  /** From useEntityForm in the same component. */
  entity: EntityForm<Values>;
  /** Resource name used in test ids (`company-drawer`, `company-form`, `company-save`, `company-error`). */
  resource: string;
  open: boolean;
  title: string;
  saving: boolean;
  onClose: () => void;
  width?: number;
  initialValues: FormProps<Values>['initialValues'];
  onFinish: (values: Values) => void;
  onValuesChange?: FormProps<Values>['onValuesChange'];
  /** Drawer content below the form and outside it (a section with its own calls). */
  after?: ReactNode;
  children: ReactNode;
}

/** A create/edit form in a FormDrawer: save submits the form, a failure no field shows is above it. */
export function EntityFormDrawer<Values>({
  entity,
  resource,
  open,
  title,
  saving,
  onClose,
  width,
  initialValues,
  onFinish,
  onValuesChange,
  after,
  children,
}: EntityFormDrawerProps<Values>) {
  const close = () => {
    entity.setError(null);
    onClose();
  };
  return (
    <FormDrawer
      resource={resource}
      open={open}
      title={title}
      saving={saving}
      onClose={close}
      onSave={() => entity.form.submit()}
      error={entity.error}
      width={width}
    >
      <ResourceContext value={resource}>
        <Form<Values>
          form={entity.form}
          layout="vertical"
          onFinish={onFinish}
          onValuesChange={onValuesChange}
          data-testid={`${resource}-form`}
          initialValues={initialValues}
        >
          {children}
        </Form>
      </ResourceContext>
      {after}
    </FormDrawer>
  );
}

interface TextFieldProps {
  /** The field's name in the form and in the shared schema. */
  name: string;
  label: string;
  /** The field's schema in the shared contract: its messages are the form's. */
  schema: ZodType;
  required?: boolean;
  type?: 'email' | 'tel' | 'text';
}

/**
 * A one-line text input of a form in EntityFormDrawer, checked by its shared schema; test id
 * `<resource>-field-<name>` with the drawer's resource.
 */
export function TextField({ name, label, schema, required = false, type }: TextFieldProps) {
  const { t } = useTranslation();
  const resource = useContext(ResourceContext);
  return (
    <Form.Item name={name} label={label} rules={[schemaRule(schema, t, required)]}>
      <Input data-testid={`${resource}-field-${name}`} type={type} autoComplete="off" />
    </Form.Item>
  );
}
