// /status tells a run cut off by a killed scheduler from one going on. The rows are written by the
// same repository calls the scheduler makes (take the lease, start the run, start each source);
// the process then "dies": nothing renews the lease or ends the rows, as after SIGKILL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordRunStart } from '../../../storage/repositories/ingest.js';
import {
  acquireLease,
  SCHEDULER_LEASE,
  startLeasedRun,
  startManualRun,
} from '../../../storage/repositories/role-leases.js';
import { type FixtureApp, openEmptyApp } from '../../../test-support/app.js';

const LEASE_MS = 30_000;

interface StatusJson {
  sources: Array<{
    source: string;
    last_poll: { status: string | null };
    backfill: { running: boolean };
  }>;
}

describe('/status after a scheduler killed mid-run', () => {
  let ctx: FixtureApp;
  const at = (offsetMs: number) => new Date(ctx.clock.now.getTime() + offsetMs).toISOString();

  /** One scheduler's lease (renewed at `now`) and a run of it that started `source`. */
  async function schedulerRun(holder: string, source: string, now: string): Promise<void> {
    const expiresAt = new Date(Date.parse(now) + LEASE_MS).toISOString();
    expect(await acquireLease(ctx.store.db, { name: SCHEDULER_LEASE, holder, now, expiresAt })).toBe(true);
    expect(await startLeasedRun(ctx.store.db, SCHEDULER_LEASE, holder, now)).toBeTypeOf('number');
    await recordRunStart(ctx.store.db, source, now);
  }

  const status = async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/status',
      headers: { accept: 'application/json' },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<StatusJson>();
    return (source: string) => {
      const entry = body.sources.find((candidate) => candidate.source === source);
      return { status: entry?.last_poll.status, running: entry?.backfill.running };
    };
  };
  const page = async () => (await ctx.app.inject({ method: 'GET', url: '/status' })).body;

  beforeAll(async () => {
    ctx = await openEmptyApp();
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('shows the run as running while its lease lives, interrupted once the lease expired', async () => {
    await schedulerRun('host-a:101:aaaaaaaa', 'house_clerk', at(0));
    // A run by hand beside it: no lease to judge it by, it is taken at its word.
    await startManualRun(ctx.store.db, 'cli:host-a:102', at(1_000));
    await recordRunStart(ctx.store.db, 'oge', at(1_000));

    ctx.clock.advance(10_000);
    let now = await status();
    expect(now('house_clerk')).toEqual({ status: 'running', running: true });
    expect(now('oge')).toEqual({ status: 'running', running: true });

    // The scheduler was killed: nothing renewed the lease, which expired at +30 s.
    ctx.clock.advance(LEASE_MS);
    now = await status();
    expect(now('house_clerk')).toEqual({ status: 'interrupted', running: false });
    expect(now('oge')).toEqual({ status: 'running', running: true });
    expect(await page()).toMatch(/<th scope="row">house_clerk<\/th><td>[^<]*<\/td><td>interrupted<\/td>/);
  });

  it('stays interrupted when another scheduler takes the lease, until that one runs the source', async () => {
    const taken = at(0);
    const expiresAt = new Date(Date.parse(taken) + LEASE_MS).toISOString();
    expect(
      await acquireLease(ctx.store.db, {
        name: SCHEDULER_LEASE,
        holder: 'host-b:201:bbbbbbbb',
        now: taken,
        expiresAt,
      }),
    ).toBe(true);
    let now = await status();
    expect(now('house_clerk')).toEqual({ status: 'interrupted', running: false });

    ctx.clock.advance(1_000);
    await schedulerRun('host-b:201:bbbbbbbb', 'house_clerk', at(0));
    now = await status();
    expect(now('house_clerk')).toEqual({ status: 'running', running: true });
  });
});
