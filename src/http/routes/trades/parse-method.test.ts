// Every served trade says how its values were read: parse_method (text | ocr | manual) and
// parse_confidence (the lowest field confidence of a row read by OCR, null for text). On the real
// data, on whichever database the run uses (SQLite or PostgreSQL), through the database-built JSON
// and the CSV path alike.
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trade } from '../../../resources/trade.js';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../../../test-support/app.js';

describe.skipIf(!realDataAvailable())('parse_method and parse_confidence on the Trade resource', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
  });
  afterAll(async () => ctx?.close());

  it('serves text and null for rows read from text, and what the OCR stage stored for a scan', async () => {
    const listed = await getJson<Trade[]>(ctx, '/trades?politician_id=thomas-kean&days=3650&limit=5');
    expect(listed.status).toBe(200);
    const [first, second] = listed.body;
    if (!first || !second) throw new Error('the fixture has trades of Thomas Kean');
    for (const trade of listed.body)
      expect(trade).toMatchObject({ parse_method: 'text', parse_confidence: null });

    // As the OCR stage and a reviewer store them (constructed values on real trades).
    await ctx.store.db
      .updateTable('trades')
      .set({ parse_method: 'ocr', parse_confidence: 0.8125 })
      .where('id', '=', first.id)
      .execute();
    await ctx.store.db
      .updateTable('trades')
      .set({ parse_method: 'manual' })
      .where('id', '=', second.id)
      .execute();

    const again = await getJson<Trade[]>(ctx, '/trades?politician_id=thomas-kean&days=3650&limit=5');
    const byId = new Map(again.body.map((trade) => [trade.id, trade]));
    expect(byId.get(first.id)).toMatchObject({ parse_method: 'ocr', parse_confidence: 0.8125 });
    expect(byId.get(second.id)).toMatchObject({ parse_method: 'manual', parse_confidence: null });

    const csv = await ctx.app.inject({
      method: 'GET',
      url: '/trades?politician_id=thomas-kean&days=3650&limit=5&format=csv',
      headers: { 'dc-api-key': ctx.key },
    });
    const records = parseCsv(csv.body, { columns: true }) as Record<string, string>[];
    const row = records.find((record) => record.id === String(first.id));
    expect(row).toMatchObject({ parse_method: 'ocr', parse_confidence: '0.8125' });
  });

  it('documents both fields in the OpenAPI document', async () => {
    const openapi = await getJson<{
      components: { schemas: { Trade: { properties: Record<string, unknown> } } };
    }>(ctx, '/openapi.json');
    expect(openapi.body.components.schemas.Trade.properties).toMatchObject({
      parse_method: { enum: ['text', 'ocr', 'manual'] },
      parse_confidence: { type: ['number', 'null'], minimum: 0, maximum: 1 },
    });
  });
});
