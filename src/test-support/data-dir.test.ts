// Without the shared data, CI fails and a local run skips loudly.
import { describe, expect, it } from 'vitest';
import { readTestSettings } from '../config/test-settings.js';
import { missingDataOutcome } from './data-dir.js';

describe('missing shared data', () => {
  it('fails the run when CI=true', () => {
    expect(readTestSettings({ CI: 'true' }).ci).toBe(true);
    expect(missingDataOutcome(readTestSettings({ CI: 'true' }).ci).fail).toBe(true);
  });

  it('skips loudly on a developer machine', () => {
    expect(readTestSettings({}).ci).toBe(false);
    const outcome = missingDataOutcome(false);
    expect(outcome.fail).toBe(false);
    expect(outcome.message).toMatch(/skipped/);
  });
});
