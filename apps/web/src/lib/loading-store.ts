import { create } from 'zustand';

interface LoadingState {
  /** The global loading flag (spec §4): off by default; while on, the loading overlay shows. */
  loading: boolean;
  setLoading: (loading: boolean) => void;
}

/** Global loading flag, settable from anywhere (`useLoading.getState().setLoading(true)`). */
export const useLoading = create<LoadingState>((set) => ({
  loading: false,
  setLoading: (loading) => set({ loading }),
}));
