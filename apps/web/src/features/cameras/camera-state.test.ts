import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/problem';
import { cameraStateOf } from './camera-state';

const failure = (status: number) => new ApiError({ status, title: 'errors.unavailable' });

describe('cameraStateOf', () => {
  it('tells a camera without an address (409) from one that cannot be reached (502, network)', () => {
    expect(cameraStateOf('error', failure(409))).toBe('noAddress');
    expect(cameraStateOf('error', failure(502))).toBe('unreachable');
    expect(cameraStateOf('error', failure(0))).toBe('unreachable');
    expect(cameraStateOf('error', new TypeError('x'))).toBe('unreachable');
  });

  it('is live once an image arrived and loading before', () => {
    expect(cameraStateOf('success', null)).toBe('live');
    expect(cameraStateOf('pending', null)).toBe('loading');
  });
});
