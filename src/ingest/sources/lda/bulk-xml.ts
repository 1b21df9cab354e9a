// The Senate's bulk download of LD-1/LD-2 filings: `<PublicFilings><Filing ...>` files, UTF-16LE
// with a byte-order mark and CRLF line ends, every value an attribute. Pure: bytes in, records out.
import { XMLParser } from 'fast-xml-parser';
import { type Obj, obj } from '../parsed-values.js';
import { uniqueTexts } from './api.js';
import {
  decimalText,
  issueCodeOfName,
  LDA_ISSUE_CODES,
  LdaFormatError,
  type LobbyingFilingRecord,
} from './filing.js';

function many(value: unknown): Obj[] {
  if (value === undefined || value === null || value === '') return [];
  return (Array.isArray(value) ? value : [value]).map(obj);
}

// The parser leaves numeric character references in attributes (`&#xD;&#xA;` in addresses and
// issue texts): decoded here, with CRLF as one newline.
function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const s = String(value)
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, decimal: string) => String.fromCodePoint(Number(decimal)))
    .replace(/\r\n?/g, '\n')
    .trim();
  return s === '' ? null : s;
}

/** The file's text: UTF-16 by its byte-order mark (as the Senate writes them), else UTF-8. */
export function decodeBulkXml(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  return new TextDecoder('utf-8').decode(bytes);
}

const ORDINALS: Readonly<Record<string, number>> = { FIRST: 1, SECOND: 2, THIRD: 3, FOURTH: 4 };
const PERIODS = ['first_quarter', 'second_quarter', 'third_quarter', 'fourth_quarter'] as const;

/**
 * The XML's phrase ("SECOND QUARTER AMENDMENT (NO ACTIVITY)", "REGISTRATION") as the API's type
 * code and period: quarters are Q1..Q4, amendments 1A..4A, terminations 1T..4T.
 */
export function bulkFilingType(phrase: string): { code: string; period: string | null; noActivity: boolean } {
  const upper = phrase.toUpperCase().trim();
  const noActivity = upper.includes('(NO ACTIVITY)');
  if (upper.startsWith('REGISTRATION')) {
    return { code: upper.includes('AMENDMENT') ? 'RA' : 'RR', period: null, noActivity };
  }
  const quarter = /^(FIRST|SECOND|THIRD|FOURTH) QUARTER/.exec(upper);
  const n = quarter?.[1] ? ORDINALS[quarter[1]] : undefined;
  if (n === undefined) return { code: upper, period: null, noActivity };
  const period = PERIODS[n - 1] ?? null;
  if (upper.includes('TERMINATION')) return { code: `${n}T`, period, noActivity };
  if (upper.includes('AMENDMENT')) return { code: `${n}A`, period, noActivity };
  return { code: `Q${n}`, period, noActivity };
}

/** "1st Quarter (Jan 1 - Mar 31)" -> first_quarter; "UNDETERMINED" -> null. */
function periodOfText(periodText: string | null): string | null {
  const n = periodText ? /^([1-4])(st|nd|rd|th) Quarter/i.exec(periodText)?.[1] : undefined;
  return n ? (PERIODS[Number(n) - 1] ?? null) : null;
}

export function parseLdaBulkXml(bytes: Uint8Array): LobbyingFilingRecord[] {
  const xml = decodeBulkXml(bytes);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: false,
  });
  let document: Obj;
  try {
    document = obj(parser.parse(xml));
  } catch (error) {
    throw new LdaFormatError(`not XML: ${(error as Error).message}`);
  }
  if (!('PublicFilings' in document))
    throw new LdaFormatError('not a Senate LDA bulk file (no <PublicFilings>)');
  return many(obj(document.PublicFilings).Filing).map(parseBulkFiling);
}

function parseBulkFiling(filing: Obj, index: number): LobbyingFilingRecord {
  const id = text(filing.ID);
  if (!id) throw new LdaFormatError(`<Filing> ${index} has no ID`);
  const registrant = obj(filing.Registrant);
  const client = obj(filing.Client);
  const registrantName = text(registrant.RegistrantName);
  const clientName = text(client.ClientName);
  if (!registrantName || !clientName)
    throw new LdaFormatError(`filing ${id} lacks a registrant or client name`);
  const year = Number(filing.Year);
  if (!Number.isInteger(year)) throw new LdaFormatError(`filing ${id} has no Year`);
  const typePhrase = text(filing.Type) ?? '';
  const type = bulkFilingType(typePhrase);
  const registrantId = text(registrant.RegistrantID);
  const clientId = text(client.ClientID);
  const selfFiler = text(client.SelfFiler) === 'TRUE';
  const amount = decimalText(filing.Amount, `filing ${id} Amount`);
  const uuid = id.toLowerCase();
  return {
    filingUuid: uuid,
    filingType: type.code,
    filingTypeDisplay: typePhrase,
    filingYear: year,
    filingPeriod: type.period ?? periodOfText(text(filing.Period)),
    noActivity: type.noActivity,
    registrantId,
    registrantName,
    registrantDescription: text(registrant.GeneralDescription),
    // The XML's ClientID counts within the registrant (12, 24 ...): only the pair names a client.
    clientId: registrantId && clientId ? `${registrantId}-${clientId}` : null,
    clientName,
    clientDescription: text(client.GeneralDescription),
    // The bulk file has one Amount: a self-filer's expenses, a firm's income.
    income: selfFiler ? null : amount,
    expenses: selfFiler ? amount : null,
    postedAt: text(filing.Received),
    documentUrl: `https://lda.senate.gov/filings/public/filing/${uuid}/print/`,
    issues: many(obj(filing.Issues).Issue).map((issue) => {
      const name = text(issue.Code) ?? 'UNKNOWN';
      const code = issueCodeOfName(name);
      return {
        code,
        name: code ? (LDA_ISSUE_CODES[code] ?? name) : name,
        description: text(issue.SpecificIssue),
      };
    }),
    lobbyists: many(obj(filing.Lobbyists).Lobbyist)
      .filter((lobbyist) => text(lobbyist.LobbyistName) !== null)
      .map((lobbyist) => ({
        name: text(lobbyist.LobbyistName) ?? '',
        coveredPosition:
          text(lobbyist.LobbyistCoveredGovPositionIndicator) === 'COVERED'
            ? (text(lobbyist.OfficialPosition) ?? 'covered position (not described)')
            : null,
        isNew: null,
      })),
    governmentEntities: uniqueTexts(
      many(obj(filing.GovernmentEntities).GovernmentEntity).map((e) => e.GovEntityName),
    ),
    origin: 'senate_bulk_xml',
  };
}
