import { describe, expect, it } from 'vitest';
import { timedParts } from './timed-parts.js';

describe('timedParts', () => {
  it('records each part in seconds, a failing one too, after the check that runs first', async () => {
    const checked: string[] = [];
    const { seconds, timed } = timedParts(() => checked.push('check'));
    expect(await timed('wait', () => new Promise((resolve) => setTimeout(() => resolve(7), 20)))).toBe(7);
    await expect(timed('fail', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(Object.keys(seconds)).toEqual(['wait', 'fail']);
    expect(seconds.wait).toBeGreaterThanOrEqual(0.015);
    expect(checked).toEqual(['check', 'check']);
  });

  it('runs no part once the check throws (an aborted job)', async () => {
    const { seconds, timed } = timedParts(() => {
      throw new Error('aborted');
    });
    let ran = false;
    await expect(
      timed('part', async () => {
        ran = true;
      }),
    ).rejects.toThrow('aborted');
    expect(ran).toBe(false);
    expect(seconds).toEqual({});
  });
});
