// Schedules 13D and 13G (and their amendments): who holds more than 5% of a class of an issuer's
// stock. Since December 2024 EDGAR takes them as XML in two schemas that spell the same thing
// differently (13D `issuerCIK`/`issuerCUSIP`/`percentOfClass`, 13G `issuerCik`/`issuerCusip`/
// `classPercent`, and a CUSIP that may be nested in `issuerCusips`); before that they were free HTML
// or text cover pages, read here best-effort from their printed row labels.

import { MONTH_NAMES } from '../../../domain/dates.js';
import type { ScheduleHoldings } from '../../../storage/schema/records.js';
import { descend, isoDateOf, numberOf, parseXml, textAt, type XmlNode } from './xml.js';

export interface ScheduleIssuer {
  cik: string | null;
  cusip: string | null;
  name: string | null;
  ticker: string | null;
}

export interface SchedulePerson extends ScheduleHoldings {
  name: string | null;
  cik: string | null;
  /** IN, CO, PN, IA, HC, OO, ... (several joined with ", "). */
  type: string | null;
}

export interface ScheduleDocument {
  /** SC 13D, SC 13D/A, SC 13G, SC 13G/A: EDGAR's form names, whichever way the filing spells them. */
  form: string;
  format: 'xml' | 'html' | 'text';
  issuer: ScheduleIssuer;
  class_title: string | null;
  event_date: string | null;
  /** Null for an original statement. */
  amendment_number: number | null;
  filer_cik: string | null;
  persons: SchedulePerson[];
}

export class ScheduleFormatError extends Error {}

export function isScheduleXml(text: string): boolean {
  const head = text.slice(0, 4000);
  return /edgar\/schedule13[dg]/i.test(head) || /<submissionType>\s*SCHEDULE 13[DG]/i.test(head);
}

/** A cover page with the printed labels every 13D/G has. */
export function isScheduleText(text: string): boolean {
  return /SCHEDULE\s+13[DG]/i.test(text) && /\(\s*Name\s+of\s+Issuer\s*\)/i.test(text);
}

/** `SCHEDULE 13G/A`, `SC 13D`, `sc13da` → `SC 13G/A`, `SC 13D`, `SC 13D/A`. */
export function scheduleForm(kind: 'D' | 'G', amended: boolean): string {
  return `SC 13${kind}${amended ? '/A' : ''}`;
}

export function parseScheduleXml(text: string): ScheduleDocument {
  const root = parseXml(text);
  const submission = descend(root, 'edgarSubmission')[0];
  if (submission === undefined) throw new ScheduleFormatError('no edgarSubmission element');
  const submissionType = textAt(submission, 'headerData', 'submissionType') ?? '';
  const kindMatch = /13\s*([DG])/i.exec(submissionType);
  if (!kindMatch)
    throw new ScheduleFormatError(`not a Schedule 13D or 13G: submission type "${submissionType}"`);
  const kind = (kindMatch[1] ?? 'D').toUpperCase() === 'G' ? 'G' : 'D';
  const cover = descend(submission, 'formData', 'coverPageHeader')[0];
  const issuerInfo = descend(cover, 'issuerInfo')[0];
  const amendmentText = textAt(cover, 'amendmentNo');
  const amended = /\/A\s*$/i.test(submissionType) || amendmentText !== null;
  const persons =
    kind === 'D'
      ? descend(submission, 'formData', 'reportingPersons', 'reportingPersonInfo').map(person13d)
      : descend(submission, 'formData', 'coverPageHeaderReportingPersonDetails').map(person13g);
  return {
    form: scheduleForm(kind, amended),
    format: 'xml',
    issuer: {
      cik: textAt(issuerInfo, 'issuerCik'),
      cusip:
        textAt(issuerInfo, 'issuerCusip') ??
        textAt(issuerInfo, 'issuerCusips', 'issuerCusipNumber') ??
        textAt(issuerInfo, 'issuerCusipNumber'),
      name: textAt(issuerInfo, 'issuerName'),
      ticker: null,
    },
    class_title: textAt(cover, 'securitiesClassTitle'),
    event_date: isoDateOf(
      textAt(cover, 'dateOfEvent') ?? textAt(cover, 'eventDateRequiresFilingThisStatement'),
    ),
    amendment_number: amendmentText === null ? null : numberOf(amendmentText),
    filer_cik: textAt(submission, 'headerData', 'filerInfo', 'filer', 'filerCredentials', 'cik'),
    persons,
  };
}

function person13d(node: XmlNode): SchedulePerson {
  return schedulePerson(node, node, { aggregate: 'aggregateAmountOwned', percent: 'percentOfClass' });
}

function person13g(node: XmlNode): SchedulePerson {
  return schedulePerson(node, descend(node, 'reportingPersonBeneficiallyOwnedNumberOfShares')[0], {
    aggregate: 'reportingPersonBeneficiallyOwnedAggregateNumberOfShares',
    percent: 'classPercent',
  });
}

/**
 * One reporting person. The two schedules' XML state the same facts: 13G nests the voting and
 * dispositive powers one level down (`powers`) and names the holding and its percent otherwise.
 */
function schedulePerson(
  node: XmlNode,
  powers: XmlNode | undefined,
  tags: { aggregate: string; percent: string },
): SchedulePerson {
  return {
    name: textAt(node, 'reportingPersonName'),
    cik: textAt(node, 'reportingPersonCik'),
    type: personType(textAt(node, 'typeOfReportingPerson')),
    sole_voting: numberOf(textAt(powers, 'soleVotingPower')),
    shared_voting: numberOf(textAt(powers, 'sharedVotingPower')),
    sole_dispositive: numberOf(textAt(powers, 'soleDispositivePower')),
    shared_dispositive: numberOf(textAt(powers, 'sharedDispositivePower')),
    aggregate_amount: numberOf(textAt(node, tags.aggregate)),
    percent_of_class: numberOf(textAt(node, tags.percent)),
  };
}

function personType(raw: string | null): string | null {
  if (raw === null) return null;
  const codes = raw.toUpperCase().match(/\b[A-Z]{2}\b/g);
  return codes ? codes.join(', ') : raw;
}

// ---- Legacy HTML/text cover pages -------------------------------------------------------------

/** `type` is the envelope's document type when known (e.g. "SC 13D/A"). */
export function parseScheduleText(source: string, type: string | null = null): ScheduleDocument {
  const isHtml = /<(html|body|p|div|table|font)[\s>]/i.test(source);
  const lines = isHtml ? htmlLines(source) : textLines(source);
  const flat = lines.join(' ');
  const kindMatch = /\b(?:SC|SCHEDULE)\s*13\s*([DG])\b/i.exec(`${type ?? ''} ${flat}`);
  if (!kindMatch) throw new ScheduleFormatError('no "SCHEDULE 13D" or "SCHEDULE 13G" on the cover page');
  const kind = (kindMatch[1] ?? 'D').toUpperCase() === 'G' ? 'G' : 'D';
  const amendment = /\(\s*Amendment\s+No\.?\s*:?\s*(\d*)\s*\)/i.exec(flat);
  const amendmentNumber = amendment?.[1] ? Number(amendment[1]) : null;
  const amended = (type !== null && /\/A\s*$/i.test(type)) || amendmentNumber !== null;
  const issuerName = labelledLine(lines, /\(\s*Name\s+of\s+(?:the\s+)?Issuer\s*\)/i);
  const cusip = cusipOf(flat, lines);
  const eventDate = textDate(labelledLine(lines, /\(\s*Date\s+of\s+Event/i) ?? '');
  if (issuerName === null) throw new ScheduleFormatError('no issuer name before "(Name of Issuer)"');
  return {
    form: scheduleForm(kind, amended),
    format: isHtml ? 'html' : 'text',
    issuer: { cik: null, cusip, name: issuerName, ticker: null },
    class_title: labelledLine(lines, /\(\s*Title\s+of\s+Class\s+of\s+Securities\s*\)/i),
    event_date: eventDate,
    amendment_number: amendmentNumber,
    filer_cik: null,
    persons: textPersons(lines),
  };
}

const BLOCK_TAGS = /<\/?(?:p|div|br|tr|td|th|li|h\d|table|center|pre)\b[^>]*>/gi;

function htmlLines(html: string): string[] {
  const text = html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/\s+/g, ' ')
    .replace(BLOCK_TAGS, '\n')
    .replace(/<[^>]*>/g, ' ');
  return textLines(decodeEntities(text));
}

function textLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/[\s\u00a0]+/g, ' ').trim())
    .filter((line) => line !== '' && !/^[-_=*\s]+$/.test(line));
}

const ENTITIES: Record<string, string> = {
  nbsp: ' ',
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  rsquo: '’',
  lsquo: '‘',
  ldquo: '“',
  rdquo: '”',
  ndash: '–',
  mdash: '—',
  pound: '£',
  sect: '§',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body.startsWith('#x') || body.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(body.slice(2), 16));
    if (body.startsWith('#')) return String.fromCodePoint(Number(body.slice(1)));
    return ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/** The value printed just above a "(Label)" line, or before the label on the same line. */
function labelledLine(lines: string[], label: RegExp): string | null {
  for (const [index, line] of lines.entries()) {
    const match = label.exec(line);
    if (!match) continue;
    const before = line
      .slice(0, match.index)
      .replace(/^.*\)\s*\*?/, '')
      .trim();
    const value = before !== '' ? before : (lines[index - 1] ?? '');
    const cleaned = value.replace(/\*+$/, '').trim();
    return cleaned === '' ? null : cleaned;
  }
  return null;
}

function cusipOf(flat: string, lines: string[]): string | null {
  const labelled = labelledLine(lines, /\(\s*CUSIP\s+Number\s*\)/i);
  const fromLabel = labelled ? /([0-9A-Z]{6}\s?[0-9A-Z]{2}\s?[0-9A-Z])/i.exec(labelled)?.[1] : undefined;
  const fromCover = /CUSIP\s*(?:No\.?|Number|#)\s*:?\s*([0-9A-Z]{6}\s?[0-9A-Z]{2}\s?[0-9A-Z])\b/i.exec(
    flat,
  )?.[1];
  const found = fromLabel ?? fromCover;
  return found ? found.replace(/\s/g, '').toUpperCase() : null;
}

function textDate(text: string): string | null {
  const written = /([A-Za-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})/.exec(text);
  if (written) {
    const month = MONTH_NAMES.findIndex((name) =>
      name.startsWith((written[1] ?? '').toLowerCase().slice(0, 3)),
    );
    if (month >= 0)
      return `${written[3]}-${String(month + 1).padStart(2, '0')}-${(written[2] ?? '').padStart(2, '0')}`;
  }
  return isoDateOf(/\d{1,2}\/\d{1,2}\/\d{4}/.exec(text)?.[0] ?? null);
}

/** Each cover page row block from "NAME(S) OF REPORTING PERSON(S)" to the next one. */
function textPersons(lines: string[]): SchedulePerson[] {
  const starts = lines.flatMap((line, index) =>
    /NAMES?\s+OF\s+REPORTING\s+PERSONS?/i.test(line) ? [index] : [],
  );
  const persons: SchedulePerson[] = [];
  for (const [position, start] of starts.entries()) {
    const end = starts[position + 1] ?? Math.min(lines.length, start + 120);
    const block = lines.slice(start, end);
    if (!block.some((line) => /SOLE\s+VOTING\s+POWER/i.test(line))) continue;
    persons.push({
      name: personName(block),
      cik: null,
      type: personType(valueAfter(block, /TYPE\s+OF\s+REPORTING\s+PERSON/i)),
      sole_voting: amountOf(valueAfter(block, /SOLE\s+VOTING\s+POWER/i)),
      shared_voting: amountOf(valueAfter(block, /SHARED\s+VOTING\s+POWER/i)),
      sole_dispositive: amountOf(valueAfter(block, /SOLE\s+DISPOSITIVE\s+POWER/i)),
      shared_dispositive: amountOf(valueAfter(block, /SHARED\s+DISPOSITIVE\s+POWER/i)),
      aggregate_amount: amountOf(
        valueAfter(block, /AGGREGATE\s+AMOUNT\s+BENEFICIALLY\s+OWNED\s+BY\s+EACH\s+REPORTING\s+PERSON/i),
      ),
      percent_of_class: percentOf(
        valueAfter(block, /PERCENT\s+OF\s+CLASS\s+REPRESENTED\s+BY\s+AMOUNT\s+IN\s+ROW\s*\(?\s*\d+\s*\)?/i),
      ),
    });
  }
  return persons;
}

/** The text after a row's label on its line, or the next line when the label ends the line. */
function valueAfter(block: string[], label: RegExp): string | null {
  for (const [index, line] of block.entries()) {
    const match = label.exec(line);
    if (!match) continue;
    const rest = line
      .slice(match.index + match[0].length)
      .replace(/^[\s:.*]*(?:\(See Instructions\))?[\s:.*]*/i, '')
      .trim();
    if (rest !== '') return rest;
    const next = block[index + 1];
    // An empty row: the next line is already the following row's number.
    if (next === undefined || /^\(?[1-9]\d?\)?\.?$/.test(next)) return null;
    return next;
  }
  return null;
}

function personName(block: string[]): string | null {
  const first = block[0] ?? '';
  const sameLine = first
    .replace(/^.*?NAMES?\s+OF\s+REPORTING\s+PERSONS?/i, '')
    .replace(
      /^[\s.:]*(?:I\.?R\.?S\.?\s+IDENTIFICATION\s+NOS?\.?\s+OF\s+ABOVE\s+PERSONS?\s*\(ENTITIES\s+ONLY\))?[\s.:]*/i,
      '',
    )
    .trim();
  if (sameLine !== '' && !/^\d+\.?$/.test(sameLine)) return sameLine;
  for (const line of block.slice(1, 6)) {
    if (/I\.?R\.?S\.?\s+IDENTIFICATION|^\(?ENTITIES ONLY\)?$|^S\.S\.|^\d+\.?$/i.test(line)) continue;
    if (/CHECK\s+THE\s+APPROPRIATE/i.test(line)) return null;
    return line;
  }
  return null;
}

function amountOf(value: string | null): number | null {
  const raw = value === null ? undefined : /^(-0-|none|[\d,]+(?:\.\d+)?)/i.exec(value)?.[1];
  if (raw === undefined) return null;
  if (/^(-0-|none)$/i.test(raw)) return 0;
  return numberOf(raw);
}

function percentOf(value: string | null): number | null {
  const raw = value === null ? undefined : /^(-0-|\d+(?:\.\d+)?|\.\d+)\s*%/.exec(value)?.[1];
  if (raw === undefined) return null;
  return raw === '-0-' ? 0 : numberOf(raw);
}
