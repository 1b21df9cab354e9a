// `ingest lobbying|contracts` end to end on the recorded real documents (replay server on
// 127.0.0.1): twice (the second run adds and emits nothing), the stored records through the API
// (filters, paging, errors), and a Pro subscription receiving signed lobbying.filed and
// contract.awarded events whose data is the REST resource.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readIngest } from '../../config.js';
import { importCompanies } from '../../market/import-companies.js';
import type { ContractResource } from '../../resources/contract.js';
import type { LobbyingResource } from '../../resources/lobbying.js';
import { listLobbying, listLobbyingJson } from '../../services/lobbying.js';
import { addAccount, type FixtureApp, getJson, openEmptyApp, requestJson } from '../../test-support/app.js';
import { expectSamePage } from '../../test-support/database-json.js';
import { runRecordsSource, startReplay } from '../../test-support/replay.js';
import { MemoryLogger, TestReceiver } from '../../test-support/webhooks.js';
import { verifyWebhook } from '../../webhooks/verify.js';
import { DeliveryWorker } from '../../webhooks/worker.js';
import type { ReplayServer } from '../replay/server.js';

const dataDir = inject('dataDir');
const SINCE = '2015-01-01';

describe.skipIf(!dataDir)('lobbying and contracts from the recorded LDA and USAspending answers', () => {
  let ctx: FixtureApp;
  let replay: ReplayServer;
  let receiver: TestReceiver;
  let archiveDir: string;
  let key: Record<string, string>;
  const lines: string[] = [];
  const run = (source: 'lobbying' | 'contracts') =>
    runRecordsSource(
      ctx.store.db,
      readIngest({
        DCLEDGER_ARCHIVE_DIR: archiveDir,
        DCLEDGER_FETCH_INTERVAL_MS: '0',
        DCLEDGER_FETCH_RETRIES: '0',
      }),
      source,
      {
        baseUrl: replay.url,
        since: SINCE,
        clock: () => ctx.clock.now,
        progress: {
          start: () => undefined,
          advance: (name, done, total) => lines.push(`${name} ${done}/${total ?? '?'}`),
          finish: () => undefined,
        },
      },
    );
  const eventCount = async (type: string) =>
    Number(
      (
        await ctx.store.db
          .selectFrom('events')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('type', '=', type)
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    ctx = await openEmptyApp();
    await importCompanies(ctx.store.db, join(dataDir ?? '', 'market/companies'), { now: ctx.clock.now });
    archiveDir = mkdtempSync(join(tmpdir(), 'dcledger-records-'));
    replay = await startReplay(dataDir ?? '');
    receiver = await TestReceiver.start();
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    key = { 'dc-api-key': account.key.api_key };
    for (const [alertType, filter, secret] of [
      ['lobbying.filed', 'LMT', 'lobbying-secret-0123456789'],
      ['contract.awarded', 'BA', 'contracts-secret-0123456789'],
    ] as const) {
      const answer = await requestJson<{ status: string }>(
        ctx,
        {
          method: 'POST',
          url: '/alerts/subscriptions',
          body: {
            delivery: 'webhook',
            webhook_url: receiver.url(),
            alert_type: alertType,
            filter_value: filter,
            webhook_secret: secret,
          },
        },
        key,
      );
      expect(answer.body.status, JSON.stringify(answer.body)).toBe('created');
    }
  });
  afterAll(async () => {
    await receiver?.close();
    await replay?.close();
    await ctx?.close();
    if (archiveDir) rmSync(archiveDir, { recursive: true, force: true });
  });

  it('ingests the LDA API page and the four bulk XML files once; the second run adds and emits nothing', async () => {
    const first = await run('lobbying');
    expect(first, String(first.error)).toMatchObject({
      status: 'completed',
      pages: 5,
      new: 756,
      updated: 0,
      events: 756,
    });
    // Two filings of the large-cap slice are also in a byte-for-byte part file: read once.
    expect(first.skipped).toHaveLength(2);
    expect(first.skipped[0]?.reason).toBe('read already in this run');
    expect(first.unmatchedNames).toContain('AMERICAN INVESTMENT COUNCIL (FKA "PEGCC")');
    expect(first.unmatchedNames).toContain("Boeing Employees' Credit Union");
    // One progress line per page or file read.
    expect(lines).toContain('lobbying 5/?');
    // The API page and the four bulk files answer 304 to the conditional requests and are not
    // read again.
    const second = await run('lobbying');
    // A failed run's error is the assertion's message.
    expect(second, String(second.error)).toMatchObject({
      status: 'completed',
      pages: 0,
      notModified: 5,
      new: 0,
      updated: 0,
      unchanged: 0,
      events: 0,
    });
    expect(await eventCount('lobbying.filed')).toBe(756);
  });

  it('ingests the recorded contract searches with their award details; the second run adds and emits nothing', async () => {
    const first = await run('contracts');
    expect(first, String(first.error)).toMatchObject({
      status: 'completed',
      new: 29,
      updated: 0,
      events: 29,
    });
    expect(first.unmatchedNames).toEqual([
      'BELL BOEING JOINT PROJECT OFFICE',
      'CALIFORNIA INSTITUTE OF TECHNOLOGY',
      'MASSACHUSETTS INSTITUTE OF TECHNOLOGY',
      'THE UNIVERSITY OF IOWA',
      'UNITED LAUNCH SERVICES, LLC',
    ]);
    const second = await run('contracts');
    expect(second, String(second.error)).toMatchObject({ new: 0, updated: 0, unchanged: 29, events: 0 });
    expect(await eventCount('contract.awarded')).toBe(29);
    const mit = await ctx.store.db
      .selectFrom('contract_awards')
      .selectAll()
      .where('award_key', '=', 'CONT_AWD_0007_9700_FA870215D0001_9700')
      .executeTakeFirstOrThrow();
    // The search row completed by the recorded award detail.
    expect(mit).toMatchObject({
      parent_name: 'MASSACHUSETTS INSTITUTE OF TECHNOLOGY',
      naics_code: '541712',
      place_city: 'LEXINGTON',
      ticker: null,
      origin: 'award_detail',
    });
    const links = await ctx.store.db
      .selectFrom('company_links')
      .selectAll()
      .where('identifier_kind', '=', 'uei')
      .where('identifier_value', '=', 'HLWWEH2CCXW5')
      .execute();
    expect(links.map((link) => [link.ticker, link.method, link.source])).toEqual([
      ['BA', 'normalized', 'usaspending'],
    ]);
  });

  it('serves the filings: filters, paging, one filing, errors', async () => {
    const lockheed = await getJson<LobbyingResource[]>(ctx, '/lobbying?ticker=lmt&limit=1000', key);
    expect(lockheed.status).toBe(200);
    expect(lockheed.body.length).toBeGreaterThan(5);
    expect(new Set(lockheed.body.map((filing) => filing.ticker))).toEqual(new Set(['LMT']));
    const oracle = await getJson<LobbyingResource[]>(
      ctx,
      '/lobbying?client=oracle&registrant=lewan&year=2016&period=second_quarter',
      key,
    );
    expect(oracle.body.map((f) => f.filing_uuid)).toContain('8a96b44a-a6bc-43dd-b332-3c56d0da0d25');
    const first = oracle.body.find((f) => f.filing_uuid === '8a96b44a-a6bc-43dd-b332-3c56d0da0d25');
    expect(first).toMatchObject({
      ticker: 'ORCL',
      ticker_match: { method: 'exact', confidence: 0.99 },
      income: '60000',
      amount: 60000,
    });
    const defense = await getJson<LobbyingResource[]>(
      ctx,
      '/lobbying?issue_code=def&min_amount=100000&limit=1000',
      key,
    );
    expect(defense.body.length).toBeGreaterThan(0);
    for (const filing of defense.body) {
      expect(filing.issues.map((issue) => issue.code)).toContain('DEF');
      expect(filing.amount).toBeGreaterThanOrEqual(100000);
    }
    const page1 = await getJson<LobbyingResource[]>(ctx, '/lobbying?limit=10', key);
    const page2 = await getJson<LobbyingResource[]>(ctx, '/lobbying?limit=10&offset=10', key);
    expect(page1.body).toHaveLength(10);
    expect(page2.body.map((f) => f.id).some((id) => page1.body.some((f) => f.id === id))).toBe(false);
    const one = await getJson<LobbyingResource>(ctx, `/lobbying/${first?.id}`, key);
    expect(one.body).toEqual(first);

    for (const [url, status, detail] of [
      ['/lobbying?issue_code=XYZ', 422, /unknown LDA issue code XYZ/],
      ['/lobbying?period=spring', 422, /period must be one of/],
      ['/lobbying?limit=0', 400, /limit/],
      ['/lobbying?min_amount=-5', 400, /min_amount/],
      ['/lobbying/999999', 404, /no lobbying filing 999999/],
    ] as const) {
      const answer = await getJson<{ detail: string }>(ctx, url, key);
      expect([answer.status, answer.body.detail], url).toEqual([
        expect.any(Number),
        expect.stringMatching(detail),
      ]);
      expect(answer.status === status || (status === 400 && answer.status === 422), url).toBe(true);
    }
    expect((await getJson({ app: ctx.app }, '/lobbying')).status).toBe(401);
  });

  it('serves each page as the database writes it: the same filings, fields and values as the resources', async () => {
    for (const query of [
      { limit: 1000 },
      { limit: 1000, sort_dir: 'asc' as const },
      { limit: 40, offset: 20 },
      { ticker: 'LMT,BA', limit: 1000 },
      { issue_code: 'DEF,TAX', min_amount: 100000, limit: 1000 },
      { client: 'oracle', year: 2016 },
      { limit: 10, offset: 100_000 },
    ]) {
      const page = await listLobbyingJson(ctx.store.db, query);
      const filings = await listLobbying(ctx.store.db, query);
      expectSamePage(page, filings, JSON.stringify(query));
      // The arrays byte for byte, not only the same values: the stored texts are joined in as they are.
      const text = page.json.toString();
      for (const { issues, lobbyists, government_entities } of filings)
        expect(text, JSON.stringify(query)).toContain(
          JSON.stringify({ issues, lobbyists, government_entities }).slice(1, -1),
        );
    }
    // The comparison is not vacuous: the pages hold lobbyists new and not, covered positions,
    // filings matched to a ticker and not.
    const all = JSON.parse(
      (await listLobbyingJson(ctx.store.db, { limit: 1000 })).json.toString(),
    ) as LobbyingResource[];
    const lobbyists = all.flatMap((filing) => filing.lobbyists);
    expect(lobbyists.some((lobbyist) => lobbyist.is_new === true)).toBe(true);
    expect(lobbyists.some((lobbyist) => lobbyist.covered_position !== null)).toBe(true);
    expect(all.some((filing) => filing.ticker_match === null)).toBe(true);
    expect(all.some((filing) => filing.ticker_match !== null)).toBe(true);
    expect(all.some((filing) => filing.issues.length > 1)).toBe(true);
  });

  it('serves the awards: filters, one award, errors', async () => {
    const boeing = await getJson<ContractResource[]>(ctx, '/contracts?ticker=BA&limit=100', key);
    expect(boeing.body.map((award) => award.award_id).sort()).toEqual(
      ['FA863412C2651', 'N0001914C0067', 'NAS1510000', 'NNM07AB03C'].sort(),
    );
    const navy = await getJson<ContractResource[]>(
      ctx,
      '/contracts?agency=navy&recipient=lockheed&min_amount=1000000000',
      key,
    );
    expect(navy.body.map((award) => award.award_id)).toEqual(['N0001917C0001']);
    const nasa = await getJson<ContractResource[]>(
      ctx,
      '/contracts?agency=aeronautics&date_from=2006-01-01&date_to=2006-12-31',
      key,
    );
    expect(nasa.body.map((award) => award.award_id)).toEqual(['NNJ06TA25C']);
    expect(nasa.body[0]).toMatchObject({ ticker: 'LMT', amount: 15327166953.75, award_date: '2006-08-31' });
    const one = await getJson<ContractResource>(ctx, `/contracts/${nasa.body[0]?.id}`, key);
    expect(one.body).toEqual(nasa.body[0]);
    const reversed = await getJson<{ detail: string }>(
      ctx,
      '/contracts?date_from=2020-01-02&date_to=2020-01-01',
      key,
    );
    expect(reversed.status).toBe(422);
    expect(reversed.body.detail).toMatch(/after date_to/);
    const missing = await getJson<{ detail: string }>(ctx, '/contracts/999999', key);
    expect([missing.status, missing.body.detail]).toEqual([404, 'no contract award 999999']);
    const badDate = await getJson<{ detail: string }>(ctx, '/contracts?date_from=2020-13-45', key);
    expect(badDate.status).toBeGreaterThanOrEqual(400);
    expect(badDate.body.detail).toMatch(/date_from/);
  });

  it('delivers signed lobbying.filed (LMT) and contract.awarded (BA) whose data is the REST resource', async () => {
    const worker = new DeliveryWorker({
      db: ctx.store.db,
      runtime: ctx.webhooks,
      clock: () => ctx.clock.now,
      log: new MemoryLogger(),
      concurrency: 8,
      leaseMs: 60_000,
      pollMs: 20,
    });
    let delivered = await worker.runOnce();
    while (delivered.delivered > 0) delivered = await worker.runOnce();
    const byEvent = new Map<string, Record<string, unknown>[]>();
    for (const delivery of receiver.received) {
      const event = String(delivery.headers['x-dcledger-event']);
      const secret =
        event === 'lobbying.filed' ? 'lobbying-secret-0123456789' : 'contracts-secret-0123456789';
      const verified = verifyWebhook(delivery.body, delivery.headers, secret, {
        now: () => ctx.clock.now.getTime(),
      });
      expect(verified.ok, JSON.stringify(verified)).toBe(true);
      const payload = JSON.parse(delivery.body.toString('utf8')) as { data: Record<string, unknown> };
      byEvent.set(event, [...(byEvent.get(event) ?? []), payload.data]);
    }
    const lockheed = await getJson<LobbyingResource[]>(ctx, '/lobbying?ticker=LMT&limit=1000', key);
    const lobbying = byEvent.get('lobbying.filed') ?? [];
    expect(lobbying.map((data) => data.id).sort()).toEqual(lockheed.body.map((filing) => filing.id).sort());
    for (const data of lobbying) expect(data).toEqual(lockheed.body.find((filing) => filing.id === data.id));
    const boeing = await getJson<ContractResource[]>(ctx, '/contracts?ticker=BA&limit=100', key);
    const contracts = byEvent.get('contract.awarded') ?? [];
    expect(contracts).toHaveLength(4);
    for (const data of contracts) expect(data).toEqual(boeing.body.find((award) => award.id === data.id));
  });
});
