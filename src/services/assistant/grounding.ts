// The assistant never states a number no tool returned: every number in an answer must be a number
// of the tool results (a value, or a number inside a returned text such as a date or an amount
// bracket), at most rounded to the precision the answer writes it with.

const NUMBER = /\d+(?:,\d{3})*(?:\.\d+)?/;
// Names with digits in them that are no figure: SEC forms and schedules ("13D/G", "Form 4", "10-K")
// and the index the returns are measured against. Read as names, so an answer can say "13D/G stakes".
const NAMES_WITH_DIGITS = /\b(?:13[DFG]|10-[KQ]|8-K|Form [345])\b|S&P 500/;
const TOKEN = new RegExp(`(${NAMES_WITH_DIGITS.source})|${NUMBER.source}`, 'g');

interface NumberToken {
  text: string;
  value: number;
  decimals: number;
}

/** The numbers written in a text: "$1,000,001", "2025-01-14" (three), "27.5". */
export function numbersIn(text: string): NumberToken[] {
  return [...text.matchAll(TOKEN)]
    .filter((match) => match[1] === undefined)
    .map((match) => {
      const plain = match[0].replace(/,/g, '');
      const dot = plain.indexOf('.');
      return { text: match[0], value: Number(plain), decimals: dot < 0 ? 0 : plain.length - dot - 1 };
    });
}

/** Every number the tool results contain, as values. */
export class Evidence {
  private readonly exact = new Set<number>();
  private readonly values: number[] = [];

  add(value: unknown, depth = 0): void {
    if (depth > 8 || value === null || value === undefined) return;
    if (typeof value === 'number') {
      this.keep(Math.abs(value));
    } else if (typeof value === 'string') {
      for (const token of numbersIn(value)) this.keep(token.value);
    } else if (Array.isArray(value)) {
      for (const item of value) this.add(item, depth + 1);
    } else if (typeof value === 'object') {
      for (const item of Object.values(value)) this.add(item, depth + 1);
    }
  }

  private keep(value: number): void {
    if (!Number.isFinite(value) || this.exact.has(value)) return;
    this.exact.add(value);
    this.values.push(value);
  }

  supports(token: NumberToken): boolean {
    if (this.exact.has(token.value)) return true;
    const scale = 10 ** token.decimals;
    return this.values.some((value) => Math.round(value * scale) === Math.round(token.value * scale));
  }
}

/** The numbers of `answer` that no tool result supports. */
export function unsupportedNumbers(answer: string, evidence: Evidence): string[] {
  return numbersIn(answer)
    .filter((token) => !evidence.supports(token))
    .map((token) => token.text);
}

export const UNVERIFIED = '[unverified]';

/** Replaces the unsupported numbers of a model's answer, so the answer states none. */
export function redactUnsupported(answer: string, evidence: Evidence): { text: string; removed: string[] } {
  const removed: string[] = [];
  const text = answer.replace(TOKEN, (match, name: string | undefined) => {
    if (name !== undefined) return match;
    const [token] = numbersIn(match);
    if (token && evidence.supports(token)) return match;
    removed.push(match);
    return UNVERIFIED;
  });
  return { text, removed };
}
