// Answers nobody received are not charged: over real sockets on 127.0.0.1 against the real API
// (SQLite, or PostgreSQL with DCLEDGER_TEST_DATABASE_URL), a call whose connection ends before the
// answer's last byte is refunded with a ledger line of its own and marked in the request log; a
// delivered call is charged once, as its X-Credits-* headers say, even when its caller resets the
// connection after reading it all.
//
// The operating system takes what it can buffer of an answer (on Linux up to the send buffer's
// ceiling, tcp_wmem, plus the receiver's buffer) and from then on the server cannot tell it from a
// delivered one. So the trades here are constructed with long comments: a 1000-row page is more
// than twice what the two buffers hold, and a caller that never reads cannot have it whole.
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../logging.js';
import { UNDELIVERED_STATUS } from '../../storage/charges/refund.js';
import { addAccount, type FixtureApp, openEmptyApp } from '../../test-support/app.js';
import { insertTestMember } from '../../test-support/constructed-rows.js';

const CALLS = 2;
const ROWS = 1000;

/** Bytes the kernel may hold of one answer: the sender's buffer at its ceiling and the receiver's. */
function kernelBuffering(): number {
  const third = (file: string, index: number, fallback: number) => {
    try {
      return Number(readFileSync(file, 'utf8').trim().split(/\s+/)[index]) || fallback;
    } catch {
      return fallback;
    }
  };
  return third('/proc/sys/net/ipv4/tcp_wmem', 2, 4 << 20) + third('/proc/sys/net/ipv4/tcp_rmem', 1, 1 << 17);
}

describe('charges of answers that were not delivered', () => {
  let ctx: FixtureApp;
  let port: number;
  const logLines: string[] = [];
  const bigAnswer = 2 * kernelBuffering();
  const request = (apiKey: string) =>
    `GET /trades?limit=${ROWS} HTTP/1.1\r\nHost: 127.0.0.1\r\nDC-API-Key: ${apiKey}\r\n\r\n`;

  beforeAll(async () => {
    ctx = await openEmptyApp(undefined, {
      logger: loggerOptions('info', { write: (line: string) => logLines.push(line) > 0 }),
    });
    // Constructed trades (origin 'test'): one member, ROWS trades disclosed yesterday, each with a
    // comment long enough that the page is `bigAnswer` bytes or more.
    const at = ctx.clock.now;
    const member = await insertTestMember(
      ctx.store.db,
      { slug: 'constructed-member', name: 'Constructed Member', chamber: 'House' },
      at,
    );
    const comment = 'constructed comment '.repeat(Math.ceil(bigAnswer / ROWS / 20));
    const day = new Date(at.getTime() - 86_400_000).toISOString().slice(0, 10);
    const rows = Array.from({ length: ROWS }, (_, index) => ({
      politician_id: member,
      filing_id: null,
      source: 'house',
      source_key: `constructed#${index}`,
      origin: 'test',
      ticker: 'ZZZT',
      asset_description: 'Constructed Corp',
      asset_type: 'Stock',
      trade_type: 'Purchase',
      trade_action: 'buy',
      amount_range: '$1,001 - $15,000',
      amount_low: 1001,
      amount_high: 15000,
      transaction_date: day,
      disclosure_date: day,
      days_to_disclose: 0,
      owner: null,
      comment,
      option_type: null,
      strike_price: null,
      option_expiry: null,
      is_ma_affected: 0,
      created_at: at.toISOString(),
      updated_at: at.toISOString(),
    }));
    for (let start = 0; start < ROWS; start += 50)
      await ctx.store.db
        .insertInto('trades')
        .values(rows.slice(start, start + 50))
        .execute();
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const address = ctx.app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  }, 60_000);
  afterAll(async () => ctx?.close());

  async function balanceOf(accountId: number) {
    const row = await ctx.store.db
      .selectFrom('accounts')
      .select(['allowance', 'credits'])
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    return Number(row.allowance) + Number(row.credits);
  }

  async function ledgerOf(accountId: number) {
    const rows = await ctx.store.db
      .selectFrom('credit_ledger')
      .select(['kind', 'amount', 'request_id', 'route', 'key_id'])
      .where('account_id', '=', accountId)
      .where('kind', 'in', ['charge', 'refund'])
      .orderBy('id')
      .execute();
    return rows.map((row) => ({ ...row, amount: Number(row.amount) }));
  }

  async function requestLogOf(keyId: number) {
    const rows = await ctx.store.db
      .selectFrom('request_log')
      .select(['request_id', 'status', 'charge'])
      .where('key_id', '=', keyId)
      .execute();
    return rows.map((row) => ({ ...row, status: Number(row.status), charge: Number(row.charge) }));
  }

  async function spentToday(keyId: number) {
    const key = await ctx.store.db
      .selectFrom('api_keys')
      .select('spent_today')
      .where('id', '=', keyId)
      .executeTakeFirstOrThrow();
    return Number(key.spent_today);
  }

  async function until(check: () => Promise<boolean>, what: () => string): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Every charge of the account has its refund, and nothing else is left charged. */
  async function expectAllRefunded(account: Awaited<ReturnType<typeof addAccount>>, before: number) {
    let seen = '';
    await until(
      async () => {
        const ledger = await ledgerOf(account.account_id);
        const charges = ledger.filter((row) => row.kind === 'charge').length;
        const refunds = ledger.filter((row) => row.kind === 'refund').length;
        seen = `${charges} charges, ${refunds} refunds`;
        return charges === CALLS && refunds === CALLS;
      },
      () => `${CALLS} charges and their refunds (${seen})`,
    );
    const ledger = await ledgerOf(account.account_id);
    const charges = ledger.filter((row) => row.kind === 'charge');
    for (const charge of charges) {
      expect(charge.amount).toBeLessThan(-ROWS);
      expect(ledger).toContainEqual({
        kind: 'refund',
        amount: -charge.amount,
        request_id: charge.request_id,
        route: 'GET /trades',
        key_id: account.key.key_id,
      });
    }
    expect(await balanceOf(account.account_id)).toBe(before);
    expect(await spentToday(account.key.key_id)).toBe(0);
    const logged = await requestLogOf(account.key.key_id);
    expect(logged).toHaveLength(CALLS);
    for (const row of logged) expect(row).toMatchObject({ status: UNDELIVERED_STATUS, charge: 0 });
    for (const charge of charges)
      expect(
        logLines.some((line) => line.includes(charge.request_id ?? '?') && line.includes('charge refunded')),
      ).toBe(true);
  }

  /** One call over a raw socket, `behave` deciding what the caller does; resolves once it is closed. */
  function call(behave: (socket: Socket, hangUp: () => void) => void): Promise<void> {
    return new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => behave(socket, () => socket.destroy()));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve());
    });
  }

  it(`refunds ${CALLS} /trades?limit=${ROWS} calls whose caller sends the request and hangs up at once`, async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro', credits: 10_000_000 });
    const before = await balanceOf(account.account_id);
    await Promise.all(
      Array.from({ length: CALLS }, () =>
        call((socket, hangUp) => {
          socket.pause();
          socket.end(request(account.key.api_key), hangUp);
        }),
      ),
    );
    await expectAllRefunded(account, before);
  }, 120_000);

  it(`refunds ${CALLS} calls whose caller stops reading once the answer has begun, then resets`, async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro', credits: 10_000_000 });
    const before = await balanceOf(account.account_id);
    await Promise.all(
      Array.from({ length: CALLS }, () =>
        call((socket) => {
          socket.once('data', () => {
            socket.pause();
            setTimeout(() => socket.resetAndDestroy(), 200);
          });
          socket.write(request(account.key.api_key));
        }),
      ),
    );
    await expectAllRefunded(account, before);
  }, 120_000);

  // A reset that comes as the last write completes makes Node report that write failed, exactly as
  // for a reset mid-answer: the call is then refunded (the doubt goes to the caller). Either way it
  // is settled once: charged as its headers say, or charged and refunded in full.
  it('charges a caller that read the whole answer and then reset the connection as its headers say, or refunds it whole', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro', credits: 10_000_000 });
    const before = await balanceOf(account.account_id);
    const head: { text: string; length: number; bodyBytes: number } = { text: '', length: -1, bodyBytes: 0 };
    await call((socket) => {
      let buffered = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        if (head.length < 0) {
          buffered = Buffer.concat([buffered, chunk]);
          const end = buffered.indexOf('\r\n\r\n');
          if (end < 0) return;
          head.text = buffered.subarray(0, end).toString('latin1');
          head.length = Number(/\r\ncontent-length: *(\d+)/i.exec(head.text)?.[1] ?? Number.NaN);
          head.bodyBytes = buffered.length - end - 4;
        } else head.bodyBytes += chunk.length;
        // The whole answer is in: hang up with a reset, as a caller after its credits back would.
        if (head.bodyBytes >= head.length) socket.resetAndDestroy();
      });
      socket.write(request(account.key.api_key));
    });
    expect(head.text).toMatch(/^HTTP\/1\.1 200 /);
    expect(head.bodyBytes).toBe(head.length);
    // The page is too big to sit whole in the kernel's buffers: the calls above were really cut.
    expect(head.length).toBeGreaterThan(bigAnswer);
    const charged = Number(/\r\nx-credits-charged: *(\d+)/i.exec(head.text)?.[1]);
    const remaining = Number(/\r\nx-credits-remaining: *(\d+)/i.exec(head.text)?.[1]);
    const requestId = /\r\nx-request-id: *([^\r]+)/i.exec(head.text)?.[1];
    expect(charged).toBeGreaterThan(ROWS);
    expect(remaining).toBe(before - charged);
    // Give a refund the time to happen before looking.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const ledger = await ledgerOf(account.account_id);
    const line = { request_id: requestId, route: 'GET /trades', key_id: account.key.key_id };
    expect(ledger[0]).toEqual({ kind: 'charge', amount: -charged, ...line });
    const refunded = ledger.length > 1;
    if (refunded) expect(ledger.slice(1)).toEqual([{ kind: 'refund', amount: charged, ...line }]);
    expect(await balanceOf(account.account_id)).toBe(refunded ? before : before - charged);
    expect(await requestLogOf(account.key.key_id)).toEqual([
      refunded
        ? { request_id: requestId, status: UNDELIVERED_STATUS, charge: 0 }
        : { request_id: requestId, status: 200, charge: charged },
    ]);
  }, 60_000);

  it('charges a delivered call on a kept-alive connection exactly once, as its X-Credits-* headers say', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro', credits: 10_000_000 });
    const before = await balanceOf(account.account_id);
    const answer = await fetch(`http://127.0.0.1:${port}/trades?limit=25`, {
      headers: { 'DC-API-Key': account.key.api_key },
    });
    const body = (await answer.json()) as unknown[];
    expect(answer.status).toBe(200);
    expect(body).toHaveLength(25);
    const charged = Number(answer.headers.get('x-credits-charged'));
    expect(charged).toBeGreaterThan(25);
    expect(Number(answer.headers.get('x-credits-remaining'))).toBe(before - charged);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await balanceOf(account.account_id)).toBe(before - charged);
    expect(await ledgerOf(account.account_id)).toEqual([
      {
        kind: 'charge',
        amount: -charged,
        request_id: answer.headers.get('x-request-id'),
        route: 'GET /trades',
        key_id: account.key.key_id,
      },
    ]);
    expect(await requestLogOf(account.key.key_id)).toEqual([
      { request_id: answer.headers.get('x-request-id'), status: 200, charge: charged },
    ]);
  });
});
