// The replay server's award search over the real recorded answers: `filters.time_period` is
// applied as the API documents it (periods ORed; a `date_type` compares that date with both bounds;
// no `date_type` asks for awards active in the period), an award recorded twice is served as the
// version of the period's end, and a withheld award key is left out until published.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PUBLISH_PATH, ReplayServer } from '../../replay/server.js';
import { SOURCES, SourceRegistry } from '../registry.js';
import { SPENDING_BY_AWARD_PATH } from './connector.js';

const dataDir = inject('dataDir');
const ISS = 'CONT_AWD_NAS1510000_8000_-NONE-_-NONE-'; // signed 1993-11-15, last modified 2025-07-16
const ARES = 'CONT_AWD_NNM07AB03C_8000_-NONE-_-NONE-'; // signed 2007-08-28, last modified 2025-07-08
/** Recorded twice: last modified 2025-06-23 ($168,657,782.95) and 2025-08-19 ($172,213,419.67). */
const IOWA = 'CONT_AWD_80GSFC18C0008_8000_-NONE-_-NONE-';

type Period = { start_date: string; end_date: string; date_type?: string };
type Row = { generated_internal_id: string; 'Award Amount': number };

describe.skipIf(!dataDir)('USAspending award search on the replay server', () => {
  let server: ReplayServer;

  /** Every page of a contract search over `periods`: the rows, and the status of any refused page. */
  async function search(periods: unknown): Promise<{ rows: Row[]; status: number }> {
    const rows: Row[] = [];
    for (let page = 1; ; page++) {
      const response = await fetch(`${server.url}${SPENDING_BY_AWARD_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          filters: { award_type_codes: ['A', 'B', 'C', 'D'], time_period: periods },
          page,
        }),
      });
      if (response.status !== 200) return { rows, status: response.status };
      const body = (await response.json()) as { results: Row[]; page_metadata: { hasNext: boolean } };
      rows.push(...body.results);
      if (!body.page_metadata.hasNext) return { rows, status: 200 };
    }
  }
  const keys = async (...periods: Period[]) =>
    (await search(periods)).rows.map((row) => row.generated_internal_id);

  beforeAll(async () => {
    server = new ReplayServer({
      dataDir: dataDir ?? '',
      registry: new SourceRegistry(SOURCES.filter((source) => source.manifest.name === 'contracts')),
      withhold: [ARES],
    });
    await server.start();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('compares the date a date_type names with both bounds; without one, asks for awards active in the period', async () => {
    const window = { start_date: '2025-07-10', end_date: '2025-07-20' };
    // Active in the window: the ISS contract was last acted on (modified) 2025-07-16.
    expect(await keys(window)).toContain(ISS);
    expect(await keys({ ...window, date_type: 'last_modified_date' })).toContain(ISS);
    expect(await keys({ ...window, date_type: 'date_signed' })).not.toContain(ISS);
    const signed1993 = { start_date: '1993-11-01', end_date: '1993-11-30' };
    expect(await keys({ ...signed1993, date_type: 'date_signed' })).toContain(ISS);
    expect(await keys({ ...signed1993, date_type: 'new_awards_only' })).toContain(ISS);
    expect(await keys({ ...signed1993, date_type: 'last_modified_date' })).not.toContain(ISS);
    // Periods are ORed: either one suffices.
    expect(
      await keys({ ...window, date_type: 'date_signed' }, { ...signed1993, date_type: 'date_signed' }),
    ).toContain(ISS);
    const refused = await search([{ ...window, date_type: 'whenever' }]);
    expect(refused.status).toBe(400);
  });

  it('serves an award recorded twice once, as the version of the period end', async () => {
    const amounts = async (end: string) =>
      (await search([{ start_date: '2025-01-01', end_date: end, date_type: 'last_modified_date' }])).rows
        .filter((row) => row.generated_internal_id === IOWA)
        .map((row) => row['Award Amount']);
    expect(await amounts('2025-07-01')).toEqual([168657782.95]);
    expect(await amounts('2025-09-01')).toEqual([172213419.67]);
  });

  it('leaves a withheld award out of every search until it is published', async () => {
    const modified = { start_date: '2025-07-01', end_date: '2025-07-10', date_type: 'last_modified_date' };
    expect(await keys(modified)).not.toContain(ARES);
    expect((await fetch(`${server.url}/api/v2/awards/${ARES}/`)).status).toBe(404);
    const published = await fetch(`${server.url}${PUBLISH_PATH}`, {
      method: 'POST',
      body: JSON.stringify({ ids: [ARES] }),
    });
    expect(await published.json()).toMatchObject({ published: [ARES] });
    expect(await keys(modified)).toContain(ARES);
  });
});
