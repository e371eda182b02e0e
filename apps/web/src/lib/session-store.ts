import { create } from 'zustand';
import { STORAGE_KEYS, type User, type UserUnit, type UserWithToken } from '@solar/shared';
import { readStorage, writeStorage } from './storage';

/** restoring: a saved token is being checked; anonymous: logged out; authenticated: a user is loaded. */
export type SessionStatus = 'restoring' | 'anonymous' | 'authenticated';

interface SessionState {
  status: SessionStatus;
  user: User | null;
  /** The units the user is limited to (`user_units`; empty = the user's whole company). */
  units: UserUnit[];
  /** Stores a user answered by GET users/{id} and its fresh token. */
  setUser: (answer: UserWithToken) => void;
  setStatus: (status: SessionStatus) => void;
  /** Clears the token and the user. */
  logout: () => void;
}

/** The saved session token (localStorage `token`, spec §4). */
export const getToken = (): string | null => readStorage(STORAGE_KEYS.token);
/** Saves or (with null) removes the session token. */
export const setToken = (token: string | null): void => writeStorage(STORAGE_KEYS.token, token);

/** The logged-in user and units (spec §3: the session store). */
export const useSession = create<SessionState>((set) => ({
  status: getToken() ? 'restoring' : 'anonymous',
  user: null,
  units: [],
  setUser: ({ token, ...user }) => {
    setToken(token);
    set({ status: 'authenticated', user, units: user.user_units });
  },
  setStatus: (status) => set({ status }),
  logout: () => {
    setToken(null);
    set({ status: 'anonymous', user: null, units: [] });
  },
}));
