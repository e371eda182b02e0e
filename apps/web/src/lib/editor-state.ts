import { useState } from 'react';

/**
 * Open/closed state of a create/edit drawer and the record being edited (null = creating). `session`
 * changes on every opening: used as the form's key, each opening starts from the record's values (and
 * without the last failure, which the form keeps: components/entity-form.tsx).
 */
export function useEditor<T>() {
  const [state, setState] = useState<{ open: boolean; record: T | null; session: number }>({
    open: false,
    record: null,
    session: 0,
  });
  return {
    ...state,
    openCreate: () => setState((s) => ({ open: true, record: null, session: s.session + 1 })),
    openEdit: (record: T) => setState((s) => ({ open: true, record, session: s.session + 1 })),
    close: () => setState((s) => ({ ...s, open: false })),
  };
}
