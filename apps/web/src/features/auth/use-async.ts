import { useCallback, useEffect, useRef, useState } from 'react';

/** The state of one async call, shaped like TanStack Query's (which the logged-out pages do without). */
export interface AsyncState<T> {
  isPending: boolean;
  isSuccess: boolean;
  isError: boolean;
  data: T | undefined;
  error: unknown;
}

const IDLE = { isPending: false, isSuccess: false, isError: false, data: undefined, error: null };

/**
 * Runs an async action on demand (a form submission) and tracks it. The logged-out pages use this
 * instead of TanStack Query's useMutation so that /login loads without the query library.
 */
export function useAsyncAction<A, T>(action: (arg: A) => Promise<T>) {
  const [state, setState] = useState<AsyncState<T>>(IDLE);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const run = useCallback(
    async (arg: A): Promise<T> => {
      setState({ ...IDLE, isPending: true });
      try {
        const data = await action(arg);
        if (mounted.current) setState({ ...IDLE, isSuccess: true, data });
        return data;
      } catch (error) {
        if (mounted.current) setState({ ...IDLE, isError: true, error });
        throw error;
      }
    },
    [action],
  );
  const reset = useCallback(() => setState(IDLE), []);
  return { ...state, run, reset };
}

/** Runs an async load when the page shows and again when `load` changes (memoize it on its inputs). */
export function useAsyncLoad<T>(load: () => Promise<T>): AsyncState<T> {
  const [result, setResult] = useState<{ for: () => Promise<T>; state: AsyncState<T> } | null>(null);
  useEffect(() => {
    let live = true;
    load().then(
      (data) => {
        if (live) setResult({ for: load, state: { ...IDLE, isSuccess: true, data } });
      },
      (error: unknown) => {
        if (live) setResult({ for: load, state: { ...IDLE, isError: true, error } });
      },
    );
    return () => {
      live = false;
    };
  }, [load]);
  return result?.for === load ? result.state : { ...IDLE, isPending: true };
}
