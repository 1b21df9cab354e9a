// Reads the quick starts of README.md as steps a test can run: the fenced `sh` blocks of every
// section whose heading starts with "Quick start", split into the few kinds of line a quick start
// may hold (npm install, export, npx dcledger ..., curl ...). A line of any other kind is an error,
// so a quick start cannot grow a command the test silently skips.
import type { Command } from 'commander';

export interface QuickStart {
  heading: string;
  steps: Step[];
}

export type Step =
  | { kind: 'npm-install'; line: string }
  | { kind: 'env'; line: string; vars: Record<string, string> }
  | { kind: 'cli'; line: string; args: string[]; background: boolean }
  | {
      kind: 'curl';
      line: string;
      method: string;
      url: string;
      headers: Record<string, string>;
      body?: string;
    };

/** Splits one shell line into words: quotes, backslash escapes, `#` comments and a trailing `&`. */
export function shellWords(line: string): { words: string[]; background: boolean } {
  const words: string[] = [];
  let word: string | undefined;
  let index = 0;
  const push = (text: string) => {
    word = (word ?? '') + text;
  };
  while (index < line.length) {
    const char = line.charAt(index);
    if (char === "'") {
      const end = line.indexOf("'", index + 1);
      if (end === -1) throw new Error(`unclosed ' in: ${line}`);
      push(line.slice(index + 1, end));
      index = end + 1;
    } else if (char === '"') {
      let end = index + 1;
      let text = '';
      while (end < line.length && line.charAt(end) !== '"') {
        if (line.charAt(end) === '$' || line.charAt(end) === '`') {
          throw new Error(`the quick-start test does not expand $ or backquotes: ${line}`);
        }
        if (line.charAt(end) === '\\' && end + 1 < line.length) end += 1;
        text += line.charAt(end);
        end += 1;
      }
      if (end >= line.length) throw new Error(`unclosed " in: ${line}`);
      push(text);
      index = end + 1;
    } else if (char === '\\' && index + 1 < line.length) {
      push(line.charAt(index + 1));
      index += 2;
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      index += 1;
    } else if (char === '#' && word === undefined) {
      break;
    } else if ('|;<>$`'.includes(char) || (char === '&' && line.charAt(index + 1) === '&')) {
      throw new Error(`the quick-start test runs simple commands only (no "${char}"): ${line}`);
    } else {
      push(char);
      index += 1;
    }
  }
  if (word !== undefined) words.push(word);
  const background = words.at(-1) === '&';
  return { words: background ? words.slice(0, -1) : words, background };
}

/** The `sh` blocks of each "Quick start" section, with backslash-continued lines joined. */
export function quickStartBlocks(markdown: string): { heading: string; lines: string[] }[] {
  const sections = markdown.split(/^## /m).slice(1);
  return sections
    .filter((section) => section.startsWith('Quick start'))
    .map((section) => {
      const heading = section.slice(0, section.indexOf('\n')).trim();
      const lines: string[] = [];
      for (const block of section.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)) {
        const joined = (block[1] ?? '').replace(/\\\n\s*/g, ' ');
        lines.push(
          ...joined.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#')),
        );
      }
      return { heading, lines };
    });
}

function curlStep(line: string, words: string[]): Step {
  const headers: Record<string, string> = {};
  let method = 'GET';
  let body: string | undefined;
  let url: string | undefined;
  for (let index = 1; index < words.length; index += 1) {
    const word = words[index] ?? '';
    const value = () => {
      index += 1;
      const next = words[index];
      if (next === undefined) throw new Error(`${word} needs a value: ${line}`);
      return next;
    };
    if (word === '-H' || word === '--header') {
      const header = value();
      const colon = header.indexOf(':');
      headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (word === '-X' || word === '--request') method = value();
    else if (word === '-d' || word === '--data') {
      body = value();
      if (method === 'GET') method = 'POST';
    } else if (word === '-s' || word === '-sS' || word === '--silent') continue;
    else if (word.startsWith('-'))
      throw new Error(`curl option ${word} is not understood by the test: ${line}`);
    else url = word;
  }
  if (!url) throw new Error(`curl without a URL: ${line}`);
  return { kind: 'curl', line, method, url, headers, ...(body === undefined ? {} : { body }) };
}

export function parseStep(line: string): Step {
  const { words, background } = shellWords(line);
  const [first, second] = words;
  if (first === 'npm' && second === 'install' && words.length === 2) return { kind: 'npm-install', line };
  if (first === 'export') {
    const vars: Record<string, string> = {};
    for (const assignment of words.slice(1)) {
      const equals = assignment.indexOf('=');
      if (equals <= 0) throw new Error(`export without NAME=value: ${line}`);
      vars[assignment.slice(0, equals)] = assignment.slice(equals + 1);
    }
    return { kind: 'env', line, vars };
  }
  if (first === 'npx' && second === 'dcledger')
    return { kind: 'cli', line, args: words.slice(2), background };
  if (first === 'curl' && !background) return curlStep(line, words);
  throw new Error(`a quick-start line the test does not know how to run: ${line}`);
}

export function readQuickStarts(readme: string): QuickStart[] {
  return quickStartBlocks(readme).map(({ heading, lines }) => ({ heading, steps: lines.map(parseStep) }));
}

/**
 * Checks arguments against the command tree without running the command: the (sub)command exists,
 * every option is one it declares, and the operands fit its arguments. Returns the command path.
 */
export function checkCliArgs(program: Command, args: string[]): string[] {
  let command = program;
  const path: string[] = [];
  let index = 0;
  for (; index < args.length; index += 1) {
    const next = command.commands.find((sub) => sub.name() === args[index]);
    if (!next) break;
    command = next;
    path.push(next.name());
  }
  if (command.commands.length > 0) {
    throw new Error(`"dcledger ${[...path, args[index] ?? ''].join(' ').trim()}" is not a command`);
  }
  const operands: string[] = [];
  for (; index < args.length; index += 1) {
    const word = args[index] ?? '';
    if (!word.startsWith('-')) {
      operands.push(word);
      continue;
    }
    const flag = word.split('=', 1)[0];
    const option = command.options.find((candidate) => candidate.long === flag || candidate.short === flag);
    if (!option) throw new Error(`dcledger ${path.join(' ')} has no option ${flag}`);
    if ((option.required || option.optional) && !word.includes('=')) index += 1;
  }
  const declared = command.registeredArguments;
  const required = declared.filter((argument) => argument.required).length;
  const variadic = declared.some((argument) => argument.variadic);
  if (operands.length < required || (!variadic && operands.length > declared.length)) {
    throw new Error(`dcledger ${path.join(' ')} takes ${declared.length} operand(s), got ${operands.length}`);
  }
  for (const option of command.options.filter((candidate) => candidate.mandatory)) {
    if (!args.some((word) => word === option.long || word.startsWith(`${option.long}=`))) {
      throw new Error(`dcledger ${path.join(' ')} needs ${option.long}`);
    }
  }
  return path;
}
