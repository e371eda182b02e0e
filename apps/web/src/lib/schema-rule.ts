import type { ZodType } from 'zod';
import type { ZodFormRule } from './form-rules';
import { knownKey, type Translate } from './i18n-keys';

const isEmpty = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * An Ant Design rule from a shared zod field schema. An empty input is validated as absent, so an
 * optional field may stay empty and a required one says `validation.required`.
 */
export function schemaRule(schema: ZodType, t: Translate, required = false): ZodFormRule {
  return {
    required,
    validator: async (_rule, value) => {
      const result = await schema.safeParseAsync(isEmpty(value) ? undefined : value);
      if (!result.success)
        throw new Error(t(knownKey(result.error.issues[0]?.message, 'validation.invalidValue')));
    },
  };
}
