import { ApiError } from '../../lib/problem';

/** A camera's state as its last snapshot request left it. */
export type CameraState = 'loading' | 'live' | 'unreachable' | 'noAddress';

/** The state of a snapshot query: 409 is a camera without an address, any other failure unreachable. */
export function cameraStateOf(status: 'pending' | 'error' | 'success', error: unknown): CameraState {
  if (status === 'pending') return 'loading';
  if (status === 'success') return 'live';
  return error instanceof ApiError && error.status === 409 ? 'noAddress' : 'unreachable';
}
