import {
  loginBody,
  okAnswer,
  passwordField,
  resetCheckAnswer,
  resetRequestBody,
  tokenAnswer,
  type UserWithToken,
} from '@solar/shared';
import { api } from '../../../lib/api-client';
import { startSession } from '../../../lib/session';

/** The field schemas of the logged-out forms (loaded with this module, after the page shows). */
export const authSchemas = {
  email: loginBody.shape.email,
  loginPassword: loginBody.shape.password,
  newPassword: passwordField(),
};

/** POST users/login, then GET users/{sub} to load the user and its fresh token. */
export async function login(values: {
  email: string;
  password: string;
  remember: boolean;
}): Promise<UserWithToken> {
  const { token } = tokenAnswer.parse(await api.post<unknown>('users/login', loginBody.parse(values)));
  return startSession(token);
}

/** POST Users/resetpasswordrequest: mails a reset link when the email belongs to an account. */
export async function requestPasswordReset(email: string): Promise<void> {
  const body = resetRequestBody.parse({ email });
  okAnswer.parse(await api.post<unknown>('Users/resetpasswordrequest', body));
}

/** POST Users/checkresetpasswordrequest: resolves when the link is valid; 400 resetLinkInvalid when not. */
export async function checkResetLink(guid: string): Promise<true> {
  return resetCheckAnswer.parse(await api.post<unknown>('Users/checkresetpasswordrequest', { guid })).valid;
}

/** POST Users/resetpassword: sets the new password of the link's account. */
export async function resetPassword(guid: string, password: string): Promise<void> {
  okAnswer.parse(await api.post<unknown>('Users/resetpassword', { guid, password }));
}

/** POST users/confirm-email: confirms a new email with the token of the link mailed to it. */
export async function confirmEmail(token: string): Promise<void> {
  okAnswer.parse(await api.post<unknown>('users/confirm-email', { token }));
}
