import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessageOf } from './api-errors';
import { notify } from './notify';

/** A delete call: toasts its result (DELETE has no generic toast) and refreshes the lists under `key`. */
export function useDeleteMutation(remove: (id: number) => Promise<unknown>, key: readonly unknown[]) {
  const { t } = useTranslation();
  const client = useQueryClient();
  return useMutation({
    mutationFn: remove,
    onSuccess: () => {
      notify.success(t('common.success'));
      void client.invalidateQueries({ queryKey: key });
    },
    onError: (error) => notify.error(errorMessageOf(error, t)),
  });
}

/** A save call (POST x/{id}; the client toasts it) that refreshes the lists under `key`. */
export function useSaveMutation<B, R>(
  save: (input: { id: number; body: B }) => Promise<R>,
  key: readonly unknown[],
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: save,
    onSuccess: () => void client.invalidateQueries({ queryKey: key }),
  });
}
