import type { FormInstance } from 'antd/es/form';
import { ApiError, fieldErrorsOf } from './problem';
import type { ZodType } from 'zod';
import { knownKey, type Translate, type TranslationKey } from './i18n-keys';

/** The shape of an Ant Design form rule this helper produces (structurally a `Rule`). */
export interface ZodFormRule {
  required: boolean;
  validator: (rule: unknown, value: unknown) => Promise<void>;
}

/** A schema, or a loader of one (logged-out pages load zod only when a field is first validated). */
export type SchemaSource = ZodType | (() => Promise<ZodType>);

/**
 * Turns a zod field schema from @solar/shared into an Ant Design rule: the field is valid when the
 * schema accepts it, otherwise the first issue's message (an i18n key) is shown translated.
 * `required` only draws the asterisk; the schema decides.
 */
export function zodRule(source: SchemaSource, t: Translate, required = true): ZodFormRule {
  return {
    required,
    validator: async (_rule, value) => {
      const schema = typeof source === 'function' ? await source() : source;
      const result = await schema.safeParseAsync(value ?? '');
      if (!result.success)
        throw new Error(t(knownKey(result.error.issues[0]?.message, 'validation.invalidValue')));
    },
  };
}

/** A rule that the value equals another field's value (repeat password), else `validation.passwordsDoNotMatch`. */
export function sameAsRule(
  getOther: () => unknown,
  t: Translate,
  messageKey: TranslationKey = 'validation.passwordsDoNotMatch',
): ZodFormRule {
  return {
    required: false,
    validator: (_rule, value) =>
      !value || value === getOther() ? Promise.resolve() : Promise.reject(new Error(t(messageKey))),
  };
}

/**
 * Puts the field messages of a 400 problem on the form that made the call; true when there were any.
 * (Ant Design types field names by the form's values; server paths are only known at run time.)
 */
export function applyProblemToForm<Values>(
  form: FormInstance<Values>,
  error: unknown,
  t: Translate,
): boolean {
  if (!(error instanceof ApiError) || error.status !== 400) return false;
  const fields = fieldErrorsOf(error.problem, t);
  if (fields.length > 0)
    form.setFields(fields as unknown as Parameters<FormInstance<Values>['setFields']>[0]);
  return fields.length > 0;
}
