import { describe, expect, it, vi } from 'vitest';
import type { FormInstance } from 'antd/es/form';
import { reportSaveError } from './api-errors';
import { ApiError, toProblem } from './problem';

const t = (key: string) => `T(${key})`;

/** A form that records what was put on its fields (the only part reportSaveError touches). */
function fakeForm() {
  const setFields = vi.fn();
  return { form: { setFields } as unknown as FormInstance<unknown>, setFields };
}

describe('reportSaveError', () => {
  it('puts the field messages of a 400 on the fields and shows no reason', () => {
    const { form, setFields } = fakeForm();
    const show = vi.fn();
    const problem = toProblem(400, {
      status: 400,
      title: 'errors.badRequest',
      errors: { name: ['validation.required'] },
    });
    reportSaveError(form, new ApiError(problem), t, show);
    expect(setFields).toHaveBeenCalledWith([{ name: ['name'], errors: ['T(validation.required)'] }]);
    expect(show).not.toHaveBeenCalled();
  });

  it('shows the reason of a 409 that names no field', () => {
    const { form, setFields } = fakeForm();
    const show = vi.fn();
    reportSaveError(form, new ApiError(toProblem(409, { title: 'errors.hasChildren' })), t, show);
    expect(setFields).not.toHaveBeenCalled();
    expect(show).toHaveBeenCalledWith('T(errors.hasChildren)');
  });

  it('shows the reason of other statuses even when the problem names fields', () => {
    const { form, setFields } = fakeForm();
    const show = vi.fn();
    const problem = toProblem(500, { title: 'errors.internal', errors: { name: ['validation.required'] } });
    reportSaveError(form, new ApiError(problem), t, show);
    expect(setFields).not.toHaveBeenCalled();
    expect(show).toHaveBeenCalledWith('T(errors.internal)');
  });

  it('shows common.failure for a failure that is no problem answer', () => {
    const { form } = fakeForm();
    const show = vi.fn();
    reportSaveError(form, new TypeError('Failed to fetch'), t, show);
    expect(show).toHaveBeenCalledWith('T(common.failure)');
  });
});
