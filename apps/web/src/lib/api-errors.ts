import type { FormInstance } from 'antd/es/form';
import { ApiError, fieldErrorsOf, messageKeyOf } from './problem';
import type { Translate } from './i18n-keys';

/** Puts the field messages of a 400 or 409 problem on the form; true when there were any. */
export function applyFieldErrors<Values>(form: FormInstance<Values>, error: unknown, t: Translate): boolean {
  if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 409)) return false;
  const fields = fieldErrorsOf(error.problem, t);
  if (fields.length > 0)
    form.setFields(fields as unknown as Parameters<FormInstance<Values>['setFields']>[0]);
  return fields.length > 0;
}

/** The translated reason a call failed (e.g. errors.hasChildren when children remain). */
export function errorMessageOf(error: unknown, t: Translate): string {
  if (error instanceof ApiError) return t(messageKeyOf(error.problem));
  return t('common.failure');
}

/**
 * Shows why a save failed the way every form of the console does: the field messages of a 400/409
 * problem on their fields; any other failure as one translated reason through `show`.
 */
export function reportSaveError<Values>(
  form: FormInstance<Values>,
  error: unknown,
  t: Translate,
  show: (message: string) => void,
): void {
  if (!applyFieldErrors(form, error, t)) show(errorMessageOf(error, t));
}
