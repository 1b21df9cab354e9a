// 13D/G statements as the API serves them: the lead row, every reporting person, the latest close.
// The whale.filed event is built with the same function, so its data equals the REST resource.
import type { Kysely } from 'kysely';
import { invalidField, notFound, quoted } from '../errors.js';
import { loadWhales, type Whale, whalesByIds } from '../resources/whale.js';
import type { WhaleSortColumn } from '../storage/repositories/sec.js';
import type { Database } from '../storage/schema.js';
import { commaList, refuseReversedDates, requestedSortedPage } from './list-query.js';

export async function getWhale(db: Kysely<Database>, id: number): Promise<Whale | undefined> {
  return (await whalesByIds(db, [id]))[0];
}

export interface WhaleListParams {
  ticker?: string;
  filer?: string;
  form?: string;
  min_percent?: number;
  date_from?: string;
  date_to?: string;
  limit: number;
  offset: number;
  sort_by?: WhaleSortColumn;
  sort_dir?: 'asc' | 'desc';
}

const WHALE_FORMS = ['SC 13D', 'SC 13D/A', 'SC 13G', 'SC 13G/A'];

/** GET /whales. `form=SC 13D` also lists its amendments; `SC 13D/A` only amendments. */
export async function listWhales(db: Kysely<Database>, params: WhaleListParams): Promise<Whale[]> {
  refuseReversedDates(params);
  const forms = commaList(params.form, (form) =>
    form
      .toUpperCase()
      .replace(/^SCHEDULE\s+/, 'SC ')
      .replace(/\s+/g, ' '),
  );
  for (const form of forms) {
    if (!WHALE_FORMS.includes(form))
      throw invalidField('form', `${quoted(form)} is not one of ${WHALE_FORMS.join(', ')}`);
  }
  const expanded = forms.flatMap((form) => (form.endsWith('/A') ? [form] : [form, `${form}/A`]));
  return loadWhales(
    db,
    {
      ticker: params.ticker?.trim() || undefined,
      filer: params.filer?.trim() || undefined,
      forms: expanded,
      minPercent: params.min_percent,
      dateFrom: params.date_from,
      dateTo: params.date_to,
    },
    requestedSortedPage(params, 'filed_date'),
  );
}

export async function requireWhale(db: Kysely<Database>, id: number): Promise<Whale> {
  const whale = await getWhale(db, id);
  if (!whale) throw notFound(`no 13D/13G filing ${id}`);
  return whale;
}
