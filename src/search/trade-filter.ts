// What a question about people says of the trades that make them an answer: the period ("in
// February 2020", "early 2020", "before March 2020", "in 2021"), the chamber ("senators") and the
// direction ("sold"). Read by hand, pure; the engine then ranks the members whose trades match.
import { MONTH_NAMES } from '../domain/dates.js';

export interface TradeFilter {
  /** Transaction dates, inclusive, ISO. */
  from?: string;
  to?: string;
  chamber?: 'Senate' | 'House';
  direction?: 'buy' | 'sell';
}

const pad = (value: number) => String(value).padStart(2, '0');
const lastDay = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

function period(text: string): Pick<TradeFilter, 'from' | 'to'> {
  const month = new RegExp(
    `\\b(before|after|since|in|during)?\\s*(${MONTH_NAMES.join('|')})\\s+((?:19|20)\\d{2})\\b`,
  ).exec(text);
  if (month?.[2] && month[3]) {
    const year = Number(month[3]);
    const index = MONTH_NAMES.indexOf(month[2]) + 1;
    const first = `${year}-${pad(index)}-01`;
    const last = `${year}-${pad(index)}-${pad(lastDay(year, index))}`;
    if (month[1] === 'before') {
      const previous = index === 1 ? { year: year - 1, month: 12 } : { year, month: index - 1 };
      return { to: `${previous.year}-${pad(previous.month)}-${pad(lastDay(previous.year, previous.month))}` };
    }
    if (month[1] === 'after' || month[1] === 'since') return { from: first };
    return { from: first, to: last };
  }
  const part = /\b(early|mid|late)\s+((?:19|20)\d{2})\b/.exec(text);
  if (part?.[1] && part[2]) {
    const span = { early: ['01-01', '04-30'], mid: ['05-01', '08-31'], late: ['09-01', '12-31'] }[part[1]];
    return span ? { from: `${part[2]}-${span[0]}`, to: `${part[2]}-${span[1]}` } : {};
  }
  const year = /\b(before|after|since|in|during|of)?\s*((?:19|20)\d{2})\b/.exec(text);
  if (year?.[2]) {
    if (year[1] === 'before') return { to: `${Number(year[2]) - 1}-12-31` };
    if (year[1] === 'after') return { from: `${Number(year[2]) + 1}-01-01` };
    if (year[1] === 'since') return { from: `${year[2]}-01-01` };
    return { from: `${year[2]}-01-01`, to: `${year[2]}-12-31` };
  }
  return {};
}

/** The filter a question states; empty when it states none. Pure. */
export function tradeFilterOf(question: string): TradeFilter {
  const text = question.toLowerCase();
  const filter: TradeFilter = { ...period(text) };
  if (/\bsenat(?:e|ors?)\b/.test(text)) filter.chamber = 'Senate';
  else if (/\b(?:representatives?|house members?|congress(?:wo)?m[ae]n)\b/.test(text))
    filter.chamber = 'House';
  const buy = /\b(?:buy|buys|bought|buying|purchas\w*|acquir\w*)\b/.test(text);
  const sell = /\b(?:sell|sells|sold|selling|sales?|dump\w*|unload\w*)\b/.test(text);
  if (buy !== sell) filter.direction = buy ? 'buy' : 'sell';
  return filter;
}
