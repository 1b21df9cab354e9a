// Stores one fetched SEC document: the filing (by accession number), its transaction lines or
// reporting persons (upserted on accession number + line), the company links it states, and one
// insider.filed / whale.filed event per new line or statement — all in one transaction, so an
// event exists exactly when its data does and a re-run emits nothing.
import type { Kysely } from 'kysely';
import { normalizeIdentifier } from '../../../market/company-links.js';
import { insiderTradesByIds } from '../../../resources/insider.js';
import { whalesByIds } from '../../../resources/whale.js';
import {
  type CompanyLinkWrite,
  findCompanyLink,
  saveCompanyLinks,
} from '../../../storage/repositories/company-links.js';
import {
  directoryCiks,
  saveInsiderTrades,
  saveSecFiling,
  saveWhalePositions,
  whaleLeadIds,
} from '../../../storage/repositories/sec.js';
import type { Database } from '../../../storage/schema.js';
import { inTransaction } from '../../../storage/transaction.js';
import { type EventData, type EventType, emitTypedEvent, eventFor } from '../../../webhooks/events.js';
import { insiderTradeRows, whalePositionRows } from './map.js';
import { parseSecDocument, type SecParse } from './parse-sec.js';

export interface SecDocumentInput {
  accession_number: string;
  /** The form as the index lists it (the document's own wins when it states one). */
  form: string;
  filed_date: string | null;
  url: string | null;
  content_hash: string | null;
  text: string;
}

export interface SecStoreResult {
  status: 'parsed' | 'unsupported' | 'failed';
  reason: string | null;
  /** New transaction lines or reporting persons. */
  created: number;
  events: number;
}

export async function storeSecDocument(
  db: Kysely<Database>,
  input: SecDocumentInput,
  now: Date,
  parsed: SecParse = parseSecDocument(input.text),
): Promise<SecStoreResult> {
  const stamp = now.toISOString();
  const filedDate = input.filed_date ?? parsed.header.filed_date;
  const base = {
    accession_number: input.accession_number,
    filed_date: filedDate,
    period_of_report: parsed.header.period_of_report,
    url: input.url,
    content_hash: input.content_hash,
  };

  if (parsed.kind === 'unsupported' || parsed.kind === 'failed') {
    await saveSecFiling(
      db,
      {
        ...base,
        form: parsed.form ?? input.form,
        issuer_cik: parsed.header.issuer_cik,
        issuer_name: parsed.header.issuer_name,
        status: parsed.kind,
        reason: parsed.reason,
      },
      stamp,
    );
    return { status: parsed.kind, reason: parsed.reason, created: 0, events: 0 };
  }

  /** The filing row and the identifiers it states, for a document that parsed; its id and ticker. */
  async function saveParsedFiling(
    trx: Kysely<Database>,
    kind: 'form4' | 'sc13',
    document: { form: string; issuer: { cik: string | null; name: string | null } },
    cusip: string | null,
    statedTicker: string | null,
  ): Promise<{ filingId: number; ticker: string | null }> {
    const { issuer } = document;
    const ticker = await issuerTicker(trx, issuer.cik, cusip, statedTicker);
    await saveCompanyLinks(
      trx,
      filingLinks(input.accession_number, kind, issuer, cusip, ticker, statedTicker !== null),
      stamp,
    );
    const filingId = await saveSecFiling(
      trx,
      {
        ...base,
        form: document.form,
        issuer_cik: issuer.cik,
        issuer_name: issuer.name,
        status: 'parsed',
        reason: null,
      },
      stamp,
    );
    return { filingId, ticker };
  }

  return inTransaction(db, async (trx) => {
    if (parsed.kind === 'ownership') {
      const document = parsed.document;
      const { filingId, ticker } = await saveParsedFiling(
        trx,
        'form4',
        document,
        null,
        document.issuer.ticker,
      );
      const rows = insiderTradeRows(document, {
        accession_number: input.accession_number,
        filed_date: filedDate,
        ticker,
      });
      const created = await saveInsiderTrades(trx, filingId, rows, stamp);
      const events = await emitEach(trx, 'insider.filed', await insiderTradesByIds(trx, created), stamp);
      return { status: 'parsed', reason: null, created: created.length, events };
    }

    const document = parsed.document;
    const { filingId, ticker } = await saveParsedFiling(trx, 'sc13', document, document.issuer.cusip, null);
    const rows = whalePositionRows(document, {
      accession_number: input.accession_number,
      filed_date: filedDate,
      ticker,
    });
    const created = await saveWhalePositions(trx, filingId, rows, stamp);
    const leads =
      created.length > 0 ? await whalesByIds(trx, await whaleLeadIds(trx, input.accession_number)) : [];
    const events = await emitEach(trx, 'whale.filed', leads, stamp);
    return { status: 'parsed', reason: null, created: created.length, events };
  });
}

/** Emits one event of `type` per resource; how many were new to the outbox. */
async function emitEach<T extends EventType>(
  db: Kysely<Database>,
  type: T,
  resources: readonly EventData[T][],
  stamp: string,
): Promise<number> {
  let emitted = 0;
  for (const resource of resources) {
    if (await emitTypedEvent(db, eventFor(type, resource), stamp)) emitted += 1;
  }
  return emitted;
}

/** The ticker a filing states, else the company identity table's link for its CUSIP, then its CIK. */
async function issuerTicker(
  db: Kysely<Database>,
  cik: string | null,
  cusip: string | null,
  stated: string | null,
): Promise<string | null> {
  if (stated) return stated.toUpperCase();
  const cusipKey = cusip ? normalizeIdentifier('cusip', cusip) : null;
  if (cusipKey) {
    const link = await findCompanyLink(db, 'cusip', cusipKey);
    if (link?.ticker) return link.ticker;
  }
  const cikKey = cik ? normalizeIdentifier('cik', cik) : null;
  if (cikKey) {
    const link = await findCompanyLink(db, 'cik', cikKey);
    if (link?.ticker) return link.ticker;
  }
  return null;
}

/**
 * What the filing says about the issuer's identifiers. A Form 4 states CIK and ticker together
 * (confidence 1); a 13D/G states CIK and CUSIP, and its ticker comes from the CIK's link (0.9).
 */
function filingLinks(
  accessionNumber: string,
  kind: 'form4' | 'sc13',
  issuer: { cik: string | null; name: string | null },
  cusip: string | null,
  ticker: string | null,
  tickerStated: boolean,
): CompanyLinkWrite[] {
  const confidence = tickerStated ? 1 : 0.9;
  const links: CompanyLinkWrite[] = [];
  const cik = issuer.cik ? normalizeIdentifier('cik', issuer.cik) : null;
  const source = `${kind}:${accessionNumber}`;
  if (cik && (ticker || tickerStated)) {
    links.push({
      identifier_kind: 'cik',
      identifier_value: cik,
      ticker,
      display_name: issuer.name,
      method: 'filing',
      confidence,
      source,
    });
  }
  const cusipKey = cusip ? normalizeIdentifier('cusip', cusip) : null;
  if (cusipKey) {
    links.push({
      identifier_kind: 'cusip',
      identifier_value: cusipKey,
      ticker,
      display_name: issuer.name,
      method: 'filing',
      confidence: ticker ? 0.9 : 0,
      source,
    });
  }
  return links;
}

/**
 * CIK → ticker links from the company directory (`companies.cik`), method `directory`. Share
 * classes share a CIK; the first ticker in alphabetical order stands for it.
 */
export async function linkCompanyDirectory(db: Kysely<Database>, now: Date): Promise<number> {
  const seen = new Set<string>();
  const links: CompanyLinkWrite[] = [];
  for (const company of await directoryCiks(db)) {
    const cik = normalizeIdentifier('cik', company.cik);
    if (!cik || seen.has(cik)) continue;
    seen.add(cik);
    links.push({
      identifier_kind: 'cik',
      identifier_value: cik,
      ticker: company.ticker,
      display_name: company.name,
      method: 'directory',
      confidence: 0.95,
      source: 'companies',
    });
  }
  return saveCompanyLinks(db, links, now.toISOString());
}
