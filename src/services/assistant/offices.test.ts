// Reading an office a question names a member by (no database): the titles of the legislators
// files a leadership office stands for, and a committee's office read against the committee names
// the data lists (the names below are the congress-legislators files' own). Who held it is the
// data's answer: src/http/routes/chat/chat.test.ts asks it on the real-data fixture.
import { describe, expect, it } from 'vitest';
import { type CommitteeName, committeeOfficeIn, leadershipOfficeIn } from './offices.js';

const COMMITTEES: CommitteeName[] = [
  { id: 'HSAS', name: 'House Committee on Armed Services', chamber: 'House' },
  { id: 'HSBA', name: 'House Committee on Financial Services', chamber: 'House' },
  { id: 'HSIF', name: 'House Committee on Energy and Commerce', chamber: 'House' },
  { id: 'HSWM', name: 'House Committee on Ways and Means', chamber: 'House' },
  { id: 'HLIG', name: 'House Permanent Select Committee on Intelligence', chamber: 'House' },
  { id: 'SSAS', name: 'Senate Committee on Armed Services', chamber: 'Senate' },
  { id: 'SSBK', name: 'Senate Committee on Banking, Housing, and Urban Affairs', chamber: 'Senate' },
  { id: 'SSEG', name: 'Senate Committee on Energy and Natural Resources', chamber: 'Senate' },
  { id: 'SSFI', name: 'Senate Committee on Finance', chamber: 'Senate' },
  { id: 'SSHR', name: 'Senate Committee on Health, Education, Labor, and Pensions', chamber: 'Senate' },
  { id: 'SLIN', name: 'Senate Select Committee on Intelligence', chamber: 'Senate' },
];

describe('leadership offices', () => {
  it.each([
    [
      'did the House majority whip sell anything in 2023?',
      ['House Majority Whip'],
      'the House majority whip',
    ],
    ["the Senate minority leader's purchases", ['Senate Minority Leader'], 'the Senate minority leader'],
    [
      'trades by the majority leader of the Senate',
      ['Senate Majority Leader'],
      'the majority leader of the Senate',
    ],
    ['what did the assistant House minority leader buy', ['Assistant House Minority Leader'], undefined],
    ['Madam Speaker of the House: her 2021 trades', ['Speaker of the House'], 'Speaker of the House'],
    ['stocks the president pro tem sold', ['President Pro Tempore of the Senate'], 'the president pro tem'],
    [
      'the House Republican Conference chair’s trades',
      ['House Republican Conference Chair', 'House Republican Caucus Chair'],
      undefined,
    ],
  ])('%s', (question, titles, words) => {
    const office = leadershipOfficeIn(question);
    expect(office?.titles).toEqual(titles);
    if (words && office) expect(question.slice(office.start, office.end)).toBe(words);
  });

  it('a party instead of a side: either side’s title, held by that party', () => {
    expect(leadershipOfficeIn('what has the Senate Democratic whip traded?')).toMatchObject({
      titles: ['Senate Majority Whip', 'Senate Minority Whip'],
      party: 'D',
    });
  });

  it('former, current and emerita', () => {
    expect(leadershipOfficeIn('the former House Speaker bought what in 2024?')).toMatchObject({
      when: 'former',
    });
    expect(leadershipOfficeIn("the sitting Senate majority leader's sales")).toMatchObject({
      when: 'current',
    });
    expect(leadershipOfficeIn('trades of the Speaker Emerita')).toMatchObject({
      when: 'former',
      emerita: true,
    });
  });

  it('is no office when a name follows the title or when nothing names one', () => {
    expect(leadershipOfficeIn('what did Speaker Johnson buy?')).toBeUndefined();
    expect(leadershipOfficeIn('the Assistant Speaker of the House')).toBeUndefined();
    expect(leadershipOfficeIn('who sold Apple in 2020?')).toBeUndefined();
  });
});

describe('committee offices', () => {
  it.each([
    [
      'what did the chairman of the Senate Finance Committee sell?',
      'SSFI',
      'chair',
      'the chairman of the Senate Finance Committee',
    ],
    [
      'trades by the ranking member on House Ways and Means',
      'HSWM',
      'ranking',
      'the ranking member on House Ways and Means',
    ],
    [
      'the House Energy and Commerce chairwoman bought what',
      'HSIF',
      'chair',
      'the House Energy and Commerce chairwoman',
    ],
    [
      'has the Senate HELP ranking member traded stocks?',
      'SSHR',
      'ranking',
      'the Senate HELP ranking member',
    ],
    ['the head of House Intel: any trades in 2025?', 'HLIG', 'chair', 'the head of House Intel'],
    ['did the chair of Senate Energy buy oil stocks', 'SSEG', 'chair', 'the chair of Senate Energy'],
  ])('%s', (question, id, role, words) => {
    const office = committeeOfficeIn(question, COMMITTEES);
    expect(office).toMatchObject({ committee: { id }, role });
    if (office) expect(question.slice(office.start, office.end)).toBe(words);
  });

  it('the top member of a party, and a committee no chamber can tell apart', () => {
    expect(committeeOfficeIn('the top Republican on Senate Armed Services', COMMITTEES)).toMatchObject({
      committee: { id: 'SSAS' },
      role: 'top',
      party: 'R',
    });
    // Armed Services sits in both chambers: without one, no committee is guessed.
    expect(committeeOfficeIn('the chair of Armed Services', COMMITTEES)).toBeUndefined();
    expect(committeeOfficeIn('the chairman of the Banking Committee', COMMITTEES)).toMatchObject({
      committee: { id: 'SSBK' },
    });
  });
});
