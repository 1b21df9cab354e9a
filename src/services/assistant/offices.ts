// A member named by an office they hold or held ("the Speaker", "the Senate majority whip", "the
// chair of Senate Banking", "the top Democrat on House Armed Services"): the data says who held it
// on the day the question is about (the end of its period, or today), and the question goes on
// with that member's name. The forms are in words.ts; no member is named here.
import { isoDay, list, record } from './answer-parts.js';
import { windowOf } from './periods.js';
import type { ChatRun } from './run.js';
import {
  CAUCUS_OFFICE,
  COMMITTEE_NAME_FILLER,
  FLOOR_OFFICE,
  OFFICE_PARTY,
  PRO_TEMPORE_OFFICE,
  ROLE_AFTER_COMMITTEE,
  ROLE_BEFORE_COMMITTEE,
  SPEAKER_OFFICE,
} from './words.js';

interface Span {
  /** Where the office's words stand in the question. */
  start: number;
  end: number;
  /** "former" (held before the day, not on it), "current" (today's holder) or none (the question's day). */
  when?: 'former' | 'current';
}

/** A leadership office: the titles of the legislators files it stands for. */
export interface LeadershipOffice extends Span {
  titles: string[];
  party?: string;
  /** "Speaker emerita": a former holder still serving. */
  emerita: boolean;
}

/** A committee's office: its chair, ranking member or top member of a party. */
export interface CommitteeOffice extends Span {
  committee: CommitteeName;
  role: 'chair' | 'ranking' | 'top';
  party?: string;
}

export interface CommitteeName {
  id: string;
  name: string;
  chamber: string;
}

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();

function whenOf(word: string | undefined): Span['when'] {
  if (!word) return undefined;
  return /^(?:former|ex)$/i.test(word) ? 'former' : /^then$/i.test(word) ? undefined : 'current';
}

/** A name right after an office is the member already ("Speaker Johnson", "Leader Thune"). */
function nameFollows(question: string, end: number): boolean {
  return /^\s+(?!(?:In|On|Of|Bought|Sold|Buy|Sell|Trade|Trades|Traded)\b)[A-Z][a-z'’-]+/.test(
    question.slice(end),
  );
}

/** The leadership office a question names, read from its words alone. Pure. */
export function leadershipOfficeIn(question: string): LeadershipOffice | undefined {
  const floor = FLOOR_OFFICE.exec(question);
  if (floor) {
    const [, when1, assistant1, chamber1, side1, kind1, when2, assistant2, side2, kind2, chamber2] = floor;
    const chamber = capital(chamber1 ?? chamber2 ?? '');
    const side = (side1 ?? side2 ?? '').toLowerCase();
    const kind = capital(kind1 ?? kind2 ?? '');
    const assistant = (assistant1 ?? assistant2) ? 'Assistant ' : '';
    const party = OFFICE_PARTY[side];
    const sides = party ? ['Majority', 'Minority'] : [capital(side)];
    return {
      start: floor.index,
      end: floor.index + floor[0].length,
      when: whenOf(when1 ?? when2),
      titles: sides.map((each) => `${assistant}${chamber} ${each} ${kind}`),
      party,
      emerita: false,
    };
  }
  const caucus = CAUCUS_OFFICE.exec(question);
  if (caucus) {
    const [, when, chamber = '', partyWord = '', , vice] = caucus;
    const party = OFFICE_PARTY[partyWord.toLowerCase()];
    const partyName = party === 'R' ? 'Republican' : 'Democratic';
    const office = vice ? 'Vice Chair' : 'Chair';
    return {
      start: caucus.index,
      end: caucus.index + caucus[0].length,
      when: whenOf(when),
      // People say "conference" and "caucus" of either party's; the files use one each.
      titles: ['Conference', 'Caucus'].map((body) => `${capital(chamber)} ${partyName} ${body} ${office}`),
      party,
      emerita: false,
    };
  }
  const proTempore = PRO_TEMPORE_OFFICE.exec(question);
  if (proTempore && !nameFollows(question, proTempore.index + proTempore[0].length)) {
    return {
      start: proTempore.index,
      end: proTempore.index + proTempore[0].length,
      when: whenOf(proTempore[1]),
      titles: ['President Pro Tempore of the Senate'],
      emerita: false,
    };
  }
  const speaker = SPEAKER_OFFICE.exec(question);
  if (!speaker) return undefined;
  const end = speaker.index + speaker[0].length;
  // "Assistant Speaker" is another office; "Speaker Johnson" names the member already.
  if (/\bassistant\s*$/i.test(question.slice(0, speaker.index)) || nameFollows(question, end))
    return undefined;
  const emerita = speaker[2] !== undefined;
  return {
    start: speaker.index,
    end,
    when: emerita ? 'former' : whenOf(speaker[1]),
    titles: ['Speaker of the House'],
    emerita,
  };
}

/** A committee's words after "Committee on (the)": "Banking, Housing, and Urban Affairs". */
function subjectWords(name: string): string[] {
  const subject = name.replace(
    /^(?:(?:house|senate|joint|united\s+states\s+senate)\s+)?(?:permanent\s+select\s+|select\s+|special\s+)?(?:committee|caucus|commission)\s+(?:on|of)\s+(?:the\s+)?/i,
    '',
  );
  return (subject.toLowerCase().match(/[\w'’-]+/g) ?? []).filter((word) => !COMMITTEE_NAME_FILLER.has(word));
}

/** How many of the words (positions) the committee's name takes from their start; 0: none. */
function wordsTaken(words: readonly string[], committee: CommitteeName): number {
  const subject = subjectWords(committee.name);
  const [first = '', second = ''] = words;
  const head = subject[0] ?? '';
  // "HELP" is the committee on Health, Education, Labor, and Pensions.
  const initials = subject.map((word) => word.charAt(0)).join('');
  if (subject.length >= 3 && first === initials) return 1;
  if (!(first === head || (first.length >= 4 && head.startsWith(first)))) return 0;
  let taken = 1;
  for (let at = 1; at < subject.length && words[taken] === subject[at]; at++) taken++;
  // A last word that only starts the next one of the name ("Armed Serv.") is left to the sentence.
  return second === '' ? 1 : taken;
}

/**
 * The committee whose name the words start with, among the listed ones of the chamber (any when
 * none is said), with how many words it took; none when two fit equally.
 */
function committeeAt(
  text: string,
  chamber: string | undefined,
  committees: readonly CommitteeName[],
): { committee: CommitteeName; length: number } | undefined {
  const tokens = [...text.matchAll(/[\w'’&-]+/g)];
  const words = tokens
    .map((token) => token[0].toLowerCase())
    .filter((word) => !COMMITTEE_NAME_FILLER.has(word));
  const fits = committees
    .filter((committee) => !chamber || committee.chamber.toLowerCase() === chamber.toLowerCase())
    .map((committee) => ({ committee, taken: wordsTaken(words, committee) }))
    .filter((fit) => fit.taken > 0)
    .sort((a, b) => b.taken - a.taken);
  const best = fits[0];
  if (!best || fits[1]?.taken === best.taken) return undefined;
  // The characters those words (and the fillers between them, and "committee" after) cover.
  let counted = 0;
  let length = 0;
  for (const token of tokens) {
    const word = token[0].toLowerCase();
    if (counted === best.taken) {
      if (/^(?:committee|panel)$/.test(word)) length = (token.index ?? 0) + token[0].length;
      break;
    }
    if (!COMMITTEE_NAME_FILLER.has(word)) counted++;
    length = (token.index ?? 0) + token[0].length;
  }
  return { committee: best.committee, length };
}

function roleOf(word: string): { role: CommitteeOffice['role']; party?: string } {
  const party = /democrat|dem\b/i.test(word) ? 'D' : /republican|gop/i.test(word) ? 'R' : undefined;
  if (party) return { role: 'top', party };
  return { role: /ranking/i.test(word) ? 'ranking' : 'chair' };
}

/** The committee office a question names, read against the committees the data lists. Pure. */
export function committeeOfficeIn(
  question: string,
  committees: readonly CommitteeName[],
): CommitteeOffice | undefined {
  const before = ROLE_BEFORE_COMMITTEE.exec(question);
  if (before) {
    const [, role = '', chamberWords, rest = ''] = before;
    const restAt = before.index + before[0].length - rest.length;
    const found = committeeAt(rest, chamberWords?.trim(), committees);
    if (found)
      return { start: before.index, end: restAt + found.length, committee: found.committee, ...roleOf(role) };
  }
  const after = ROLE_AFTER_COMMITTEE.exec(question);
  if (after) {
    const [, chamber = '', name = '', role = ''] = after;
    const found = committeeAt(name, chamber, committees);
    // Every word between the chamber and the office is the committee's ("House Armed Services chair").
    if (found && name.slice(found.length).trim() === '')
      return {
        start: after.index,
        end: after.index + after[0].length,
        committee: found.committee,
        ...roleOf(role),
      };
  }
  return undefined;
}

/** Words that may name a committee's office: the committees are listed only then. */
const COMMITTEE_CUE =
  /\b(?:chair(?:man|woman|person)?|head|leader|ranking|top\s+(?:democrat|republican|dem|gop)|senior\s+(?:democrat|republican))\b[\s\S]*\b(?:house|senate|committee|panel)\b|\b(?:house|senate)\b[\s\S]*\b(?:chair(?:man|woman|person)?|ranking\s+member|top\s+(?:democrat|republican))\b/i;

interface Holder {
  name: string;
  /** How the answer says the office. */
  office: string;
}

function holderLine(holder: Holder, names: readonly string[], when: string): string {
  const others = names.filter((name) => name !== holder.name);
  const said = when === 'before' ? `Former ${holder.office}` : `${holder.office} ${when}`;
  return `${said}: ${holder.name}${others.length > 0 ? ` (also ${others.join(', ')})` : ''}.`;
}

/**
 * The question with the office it names replaced by the name of the member who held it, after a
 * line saying who that is; the question unchanged when it names no office; undefined when the
 * answer is written (no one held it then, or a call was refused).
 */
export async function withOfficeHolder(run: ChatRun, question: string): Promise<string | undefined> {
  const today = isoDay(run.today);
  const window = windowOf(question, run.today);
  const dayOf = (span: Span) =>
    span.when !== 'current' && window.dateTo !== undefined && window.dateTo < today ? window.dateTo : today;
  const whenWords = (span: Span, day: string) =>
    span.when === 'former' ? 'before' : day === today ? 'now' : 'at the end of the period asked about';

  const leadership = leadershipOfficeIn(question);
  if (leadership) {
    const day = dayOf(leadership);
    const call = await run.call('find_members', {
      role: leadership.titles.join(','),
      role_date: day,
      ...(leadership.when === 'former' ? { role_former: true } : {}),
      ...(leadership.party ? { party: leadership.party } : {}),
      ...(leadership.emerita ? { in_office: true } : {}),
      limit: 5,
    });
    if (call.status >= 400) {
      run.refused(call);
      return undefined;
    }
    const names = list<{ name: string }>(call.result).map((member) => member.name);
    const office = leadership.titles.join(' or ');
    const first = names[0];
    if (!first) {
      run.write(`The legislators data names no one as ${office} ${whenWords(leadership, day)}.`);
      return undefined;
    }
    run.write(holderLine({ name: first, office }, names, whenWords(leadership, day)));
    return `${question.slice(0, leadership.start)}${first}${question.slice(leadership.end)}`;
  }

  if (!COMMITTEE_CUE.test(question)) return question;
  const listed = await run.call('list_committees', { top_level: true, limit: 200 });
  if (listed.status >= 400) {
    run.refused(listed);
    return undefined;
  }
  const asked = committeeOfficeIn(question, list<CommitteeName>(listed.result));
  if (!asked) return question;
  const day = dayOf(asked);
  const detail = await run.call('get_committee', {
    id: asked.committee.id,
    ...(day < today ? { date: day } : {}),
  });
  if (detail.status >= 400) {
    run.refused(detail);
    return undefined;
  }
  const body = record(detail.result);
  const seats = list<{ name: string | null; party: string | null; title: string | null }>(
    day < today ? record(body.members_on_date).members : body.members,
  );
  const leads = (title: string | null, role: 'chair' | 'ranking') =>
    role === 'chair'
      ? /^(?:chair|chairman|chairwoman|chairperson)$/i.test(title ?? '')
      : /^ranking member$/i.test(title ?? '');
  const seat = seats.find((each) =>
    asked.role === 'top'
      ? each.party === asked.party && (leads(each.title, 'chair') || leads(each.title, 'ranking'))
      : leads(each.title, asked.role),
  );
  const office = `${asked.role === 'chair' ? 'Chair' : asked.role === 'ranking' ? 'Ranking Member' : `Top ${asked.party === 'R' ? 'Republican' : 'Democrat'} on`} ${asked.role === 'top' ? 'the' : 'of the'} ${asked.committee.name}`;
  if (!seat?.name) {
    run.write(
      `The committee's seats on record name no ${office} ${whenWords(asked, day)}: ask by the member's name.`,
    );
    return undefined;
  }
  run.write(holderLine({ name: seat.name, office }, [], whenWords(asked, day)));
  return `${question.slice(0, asked.start)}${seat.name}${question.slice(asked.end)}`;
}
