// Record questions without a model: insider transactions, 13D/G stakes, lobbying, federal
// contracts, bills, a member's roll-call votes and campaign finance, each answered through its
// record tool (RECORD_TOOLS in services/tools.ts), charged as its endpoint. recordIntent() is pure
// (the question in, an intent out); the answer functions write only values the tools returned.
import { quoted } from '../../errors.js';
import type { ChatRun } from './run.js';

export type RecordIntent =
  | { kind: 'insider_trades'; company: string | undefined }
  | { kind: 'whale_filings'; company: string | undefined }
  | { kind: 'lobbying_filings'; company: string | undefined }
  | { kind: 'contract_awards'; company: string | undefined }
  | { kind: 'get_bill'; id: string }
  | { kind: 'search_bills'; text: string }
  | { kind: 'member_votes'; member: string }
  | { kind: 'campaign_finance'; member: string };

/** "$NVDA", "NVDA" (capitals), else the words after the last "at/of/for/by/to/in/from/on". */
function companyIn(question: string): string | undefined {
  const dollar = /\$([A-Za-z]{1,5}(?:\.[A-Za-z])?)\b/.exec(question);
  if (dollar?.[1]) return dollar[1].toUpperCase();
  const symbol = /(?:^|\s)([A-Z]{2,5}(?:\.[A-Z])?)(?=$|[\s?.!,'’])/.exec(question);
  if (symbol?.[1] && !/^(?:SEC|US|USA|LDA|FEC|DOD|GSA|NASA|CEO|CFO)$/.test(symbol[1])) return symbol[1];
  const after = /\b(?:at|of|for|by|to|in|from|on|about)\s+([A-Za-z0-9&.,' -]+?)\s*[?.!]*$/i.exec(question);
  const name = after?.[1]
    ?.replace(/^(?:the\s+)?(?:company|stock|shares)\s+/i, '')
    .replace(/\s+(?:stock|shares|inc\.?|corp\.?|corporation)$/i, '')
    .trim();
  if (!name || /^(?:insiders?|companies|congress|members?|the (?:company|government))$/i.test(name))
    return undefined;
  return name;
}

/** A member's name around vote or campaign-finance words. */
function memberIn(question: string, patterns: readonly RegExp[]): string | undefined {
  for (const pattern of patterns) {
    const name = pattern
      .exec(question)?.[1]
      ?.replace(/[?.!]+$/g, '')
      .replace(/['’]s\s+(?:campaigns?|re-?election|fundraising)\b.*$/i, '')
      .replace(/^(?:rep\.?|representative|sen\.?|senator|congressman|congresswoman)\s+/i, '')
      .replace(/['’]s$/i, '')
      .trim();
    if (name) return name;
  }
  return undefined;
}

const BILL =
  /\b(h\.?\s?r|s|h\.?\s?res|s\.?\s?res|h\.?\s?j\.?\s?res|s\.?\s?j\.?\s?res)\.?\s?(\d{1,5})\b(?:\s*(?:-|,|\(|of the|in the)?\s*(\d{2,3})(?:st|nd|rd|th)?(?:\s+congress)?\)?)?/i;

export function recordIntent(question: string): RecordIntent | undefined {
  const text = question.trim();
  if (/\bhow did\s+.+?\s+vote\b|\bvot(?:es|ing record)\b|\broll[- ]calls?\b/i.test(text)) {
    const member = memberIn(text, [
      /\bhow did\s+(.+?)\s+vote\b/i,
      /^(?:show(?: me)?\s+|list\s+)?(.+?)['’]s\s+(?:roll[- ]call\s+)?vot/i,
      /\b(?:votes?|voting record|roll[- ]calls?)\s+(?:of|by|for|cast by)\s+(.+)$/i,
    ]);
    if (member) return { kind: 'member_votes', member };
  }
  if (
    /\bcampaign (?:finance|money|contributions)\b|\bdonors?\b|\bfundrais|\bwho (?:funds|funded|gave to|donated to)\b/i.test(
      text,
    )
  ) {
    const member = memberIn(text, [
      /\bwho (?:funds|funded|gave to|donated to)\s+(.+)$/i,
      /^(?:show(?: me)?\s+|what (?:is|are)\s+)?(.+?)['’]s\s+(?:campaign|donors|fundrais)/i,
      /\b(?:finance|money|contributions|donors|fundraising)\s+(?:of|for|to|behind)\s+(.+)$/i,
    ]);
    if (member) return { kind: 'campaign_finance', member };
  }
  if (/\binsiders?\b|\bform 4\b|\bform 3\b|\bform 5\b/i.test(text))
    return { kind: 'insider_trades', company: companyIn(text) };
  if (
    /\b13[dg]\b|\bschedule 13|\bwhales?\b|\bactivist\b|\blarge (?:share|stake)holders?\b|\bbeneficial owner/i.test(
      text,
    )
  )
    return { kind: 'whale_filings', company: companyIn(text) };
  if (/\blobb(?:y|ied|ying|yists?)\b/i.test(text))
    return { kind: 'lobbying_filings', company: companyIn(text) };
  if (/\b(?:federal |government )?contracts?\b|\bcontract awards?\b|\busaspending\b/i.test(text))
    return { kind: 'contract_awards', company: companyIn(text) };
  const bill = BILL.exec(text);
  if (bill?.[1] && bill[2] && /\b(?:bill|act|resolution|h\.?\s?r|s\.)\b/i.test(text)) {
    const type = bill[1].toLowerCase().replace(/[^a-z]/g, '');
    if (bill[3]) return { kind: 'get_bill', id: `${type}${bill[2]}-${bill[3]}` };
    return { kind: 'search_bills', text: `${type}${bill[2]}` };
  }
  const about =
    /\b(?:bills?|legislation|resolutions?)\b.*?\b(?:about|on|regarding|concerning|related to|touching)\s+(.+?)[?.!]*$/i.exec(
      text,
    );
  if (about?.[1]) return { kind: 'search_bills', text: about[1].trim() };
  return undefined;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function list<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

const SHOWN = 10;

/** Helpers the general router lends (member and ticker lookups through the lookup tool). */
export interface RecordHelpers {
  findMember(run: ChatRun, name: string): Promise<{ politician_id: number; name: string } | undefined>;
  resolveTicker(run: ChatRun, text: string): Promise<string | undefined>;
}

/** A returned amount as written (cents kept: the answer states no rounded number of its own). */
const money = (value: unknown) =>
  typeof value === 'number'
    ? `$${value.toLocaleString('en-US', { maximumFractionDigits: 2 })}`
    : 'amount not given';

/** A returned value, or words when the record leaves it empty. */
const text = (value: unknown, missing = 'not given') =>
  value === null || value === undefined || value === '' ? missing : String(value);

/** Lists a record tool's rows, one line each, citing every row it shows. */
async function listRows(
  run: ChatRun,
  tool: string,
  args: Record<string, unknown>,
  heading: string,
  none: string,
  line: (row: Record<string, unknown>) => string,
): Promise<void> {
  const call = await run.call(tool, { ...args, limit: SHOWN });
  if (call.status >= 400) return run.refused(call);
  const rows = list<Record<string, unknown>>(call.result);
  if (rows.length === 0) {
    run.write(none);
    return;
  }
  run.write(heading);
  for (const row of rows) {
    run.write(`- ${line(row)}`);
    run.cite(tool, row);
  }
}

/** The ticker of a company the question names, through lookup; undefined when none matched. */
async function tickerOf(run: ChatRun, helpers: RecordHelpers, company: string | undefined) {
  if (!company) return undefined;
  return helpers.resolveTicker(run, company);
}

export async function answerRecord(
  run: ChatRun,
  intent: RecordIntent,
  helpers: RecordHelpers,
): Promise<void> {
  switch (intent.kind) {
    case 'insider_trades': {
      const ticker = intent.company ? await tickerOf(run, helpers, intent.company) : undefined;
      if (intent.company && !ticker) return;
      const what = ticker ? ` in ${ticker}` : '';
      return listRows(
        run,
        'insider_trades',
        ticker ? { ticker } : {},
        `Latest SEC insider transactions (officers, directors, large owners)${what}:`,
        `No insider transaction${what} is on file.`,
        (row) =>
          `${text(row.transaction_date ?? row.filed_date, 'undated')}: ${text(row.insider_name)} (${text(row.insider_title, 'insider')}), ${text(row.transaction_type ?? row.transaction_code)}, shares ${text(row.shares)} of ${text(row.ticker ?? row.issuer_name)}${typeof row.total_value === 'number' ? `, ${money(row.total_value)}` : ''} [insider trade ${String(row.id)}]`,
      );
    }
    case 'whale_filings': {
      const ticker = intent.company ? await tickerOf(run, helpers, intent.company) : undefined;
      if (intent.company && !ticker) return;
      const what = ticker ? ` in ${ticker}` : '';
      return listRows(
        run,
        'whale_filings',
        ticker ? { ticker } : {},
        `Latest beneficial-ownership filings of large shareholders${what}:`,
        `No beneficial-ownership filing${what} is on file.`,
        (row) =>
          `${text(row.filed_date, 'undated')}: ${text(row.filer_name)}, ${text(row.form_type)}, ${typeof row.percent_of_class === 'number' ? `${String(row.percent_of_class)}% of` : 'a stake in'} ${text(row.issuer_name)} [whale filing ${String(row.id)}]`,
      );
    }
    case 'lobbying_filings': {
      const ticker = intent.company ? await tickerOf(run, helpers, intent.company) : undefined;
      if (intent.company && !ticker) return;
      const what = ticker ? ` for ${ticker}` : '';
      return listRows(
        run,
        'lobbying_filings',
        ticker ? { ticker } : {},
        `Latest federal lobbying filings${what}:`,
        `No lobbying filing${what} is on file.`,
        (row) =>
          `${text(row.filing_year, 'undated')} ${text(row.filing_type_display ?? row.filing_period, '')}: ${text(row.registrant_name)} for ${text(row.client_name)}, ${money(row.amount)} [lobbying ${String(row.id)}]`,
      );
    }
    case 'contract_awards': {
      const ticker = intent.company ? await tickerOf(run, helpers, intent.company) : undefined;
      if (intent.company && !ticker) return;
      const what = ticker ? ` to ${ticker}` : '';
      return listRows(
        run,
        'contract_awards',
        ticker ? { ticker } : {},
        `Latest federal contract awards${what}:`,
        `No federal contract award${what} is on file.`,
        (row) =>
          `${text(row.award_date, 'undated')}: ${text(row.recipient_name)} from ${text(row.awarding_agency, 'an agency not given')}, ${money(row.amount)} [contract ${String(row.id)}]`,
      );
    }
    case 'search_bills':
      return listRows(
        run,
        'search_bills',
        { q: intent.text.slice(0, 200) },
        `Bills matching ${quoted(intent.text)}, latest action first:`,
        `No bill matches ${quoted(intent.text)}.`,
        (row) =>
          `${String(row.id)}: ${text(row.short_title ?? row.title)} (latest action ${text(row.latest_action_date, 'undated')}: ${text(row.latest_action_text, 'none')})`,
      );
    case 'get_bill': {
      const call = await run.call('get_bill', { id: intent.id });
      if (call.status >= 400) return run.refused(call);
      const bill = record(call.result);
      run.write(
        `${String(bill.id)}: ${text(bill.short_title ?? bill.title)}. Introduced ${text(bill.introduced_date, 'on a date not given')}; latest action ${text(bill.latest_action_date, 'undated')}: ${text(bill.latest_action_text, 'none')}.`,
      );
      run.cite('get_bill', { id: bill.id, title: bill.title, latest_action_date: bill.latest_action_date });
      return;
    }
    case 'member_votes': {
      const member = await helpers.findMember(run, intent.member);
      if (!member) return;
      return listRows(
        run,
        'member_votes',
        { id: String(member.politician_id) },
        `Latest roll-call votes of ${member.name}:`,
        `No roll-call vote of ${member.name} is on file.`,
        (row) =>
          `${text(row.date, 'undated')}: ${text(row.position)} on ${text(row.measure ?? row.bill_id ?? row.question)} (${text(row.question)}; ${text(row.result)}) [vote ${String(row.vote_id)}]`,
      );
    }
    case 'campaign_finance': {
      const member = await helpers.findMember(run, intent.member);
      if (!member) return;
      const call = await run.call('campaign_finance', { id: String(member.politician_id) });
      if (call.status >= 400) return run.refused(call);
      const answer = record(call.result);
      const totals = list<Record<string, unknown>>(answer.cycle_totals);
      if (totals.length === 0) {
        run.write(`No FEC campaign finance of ${member.name} is on file.`);
        return;
      }
      run.write(`Campaign finance of ${member.name} (FEC):`);
      for (const cycle of totals.slice(0, 3)) {
        run.write(
          `- cycle ${text(cycle.cycle)}: receipts ${money(cycle.receipts)}, PAC contributions ${money(cycle.pac_contributions)}, individual contributions ${money(cycle.individual_contributions)}`,
        );
        run.cite('campaign_finance', cycle);
      }
      const industries = list<Record<string, unknown>>(answer.top_industries).slice(0, 5);
      if (industries.length > 0) {
        run.write(
          `Top donor industries: ${industries.map((entry) => `${String(entry.sector)} ${money(entry.amount)}`).join(', ')}.`,
        );
        for (const entry of industries) run.cite('campaign_finance', entry);
      }
      return;
    }
  }
}
