// A real pino logger, writing through the redacting stream the service logs through, whose JSON
// lines a test reads back (MemoryLogger in webhooks.ts stands in for a logger instead).
import { pino } from 'pino';
import { redactingStream } from '../logging.js';

export function capturedLog<Line>(): { log: pino.Logger; lines: () => Line[] } {
  const raw: string[] = [];
  const log = pino({ level: 'debug' }, redactingStream({ write: (line: string) => raw.push(line) > 0 }));
  const lines = () =>
    raw
      .join('')
      .split('\n')
      .filter((text) => text.trim() !== '')
      .map((text) => JSON.parse(text) as Line);
  return { log, lines };
}
