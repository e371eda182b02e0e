import { describe, expect, it } from 'vitest';
import { Lifecycle } from './lifecycle';

describe('Lifecycle', () => {
  const quiet = { error: () => undefined };

  it('starts the parts in order and stops them in reverse, built parts last', async () => {
    const events: string[] = [];
    const parts = new Lifecycle(quiet);
    const part = (name: string) => ({ stop: () => events.push(`stop ${name}`) });
    parts.built('database', part('database'));
    parts.built('writer', part('writer'), () => {
      events.push('writer ready');
      return Promise.resolve();
    });
    const lease = parts.onReady('lease', async () => {
      await Promise.resolve();
      events.push('start lease');
      return part('lease');
    });
    parts.onReady('jobs', () => {
      events.push('start jobs');
      return part('jobs');
    });
    expect(lease()).toBeUndefined();
    await parts.start();
    await parts.start();
    expect(lease()).toBeDefined();
    await parts.stop();
    expect(events).toEqual([
      'writer ready',
      'start lease',
      'start jobs',
      'stop jobs',
      'stop lease',
      'stop writer',
      'stop database',
    ]);
    expect(lease()).toBeUndefined();
  });

  it('closes what was built even when the app never got ready', async () => {
    const events: string[] = [];
    const parts = new Lifecycle(quiet);
    parts.built('database', { stop: () => events.push('stop database') });
    parts.onReady('jobs', () => ({ stop: () => events.push('stop jobs') }));
    await parts.stop();
    expect(events).toEqual(['stop database']);
  });

  it('stops every part when one fails to stop, logs it and throws the failure at the end', async () => {
    const events: string[] = [];
    const logged: unknown[] = [];
    const parts = new Lifecycle({ error: (details) => logged.push(details) });
    parts.built('database', { stop: () => events.push('stop database') });
    parts.onReady('lease', () => ({
      stop: () => Promise.reject(new Error('renewal failed')),
    }));
    parts.onReady('jobs', () => ({ stop: () => events.push('stop jobs') }));
    await parts.start();
    await expect(parts.stop()).rejects.toThrow('renewal failed');
    expect(events).toEqual(['stop jobs', 'stop database']);
    expect(logged).toEqual([expect.objectContaining({ part: 'lease' })]);
  });

  it('stops what started when a later part fails to start', async () => {
    const events: string[] = [];
    const parts = new Lifecycle(quiet);
    parts.built('database', { stop: () => events.push('stop database') });
    parts.onReady('bus', () => ({ stop: () => events.push('stop bus') }));
    parts.onReady('lease', () => Promise.reject(new Error('no database')));
    parts.onReady('jobs', () => ({ stop: () => events.push('stop jobs') }));
    await expect(parts.start()).rejects.toThrow('no database');
    await parts.stop();
    expect(events).toEqual(['stop bus', 'stop database']);
  });
});
