/** Empty text → null: optional texts and numbers are sent as null when left empty. */
export function orNull<T>(value: T | '' | undefined | null): T | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'string' && value.trim() === '') return null;
  return value;
}
