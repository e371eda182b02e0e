import {
  okAnswer,
  userSchema,
  userWithTokenSchema,
  type PasswordBody,
  type ProfileBody,
  type User,
  type UserWithToken,
} from '@solar/shared';
import { api } from '../../../lib/api-client';

/** POST Users/profile/{id}: saves the fields a user edits on their own profile; answers the saved user. */
export async function updateProfile(id: number, body: ProfileBody): Promise<User> {
  return userSchema.parse(await api.post<unknown>(`Users/profile/${id}`, body));
}

/** GET users/{id} of another user (shown, never stored as the session). */
export async function fetchUser(id: number): Promise<UserWithToken> {
  return userWithTokenSchema.parse(await api.get<unknown>(`users/${id}`));
}

/**
 * POST Users/{id}/password for the own account: needs the current password. Every sign-in of the user,
 * this one too, ends with it (docs/security.md, "Accounts and sessions").
 */
export async function changeOwnPassword(id: number, body: PasswordBody): Promise<void> {
  okAnswer.parse(await api.post<unknown>(`users/${id}/password`, body));
}
