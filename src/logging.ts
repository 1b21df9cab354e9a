// Every log line of the service passes through one redaction before it is written: API keys
// (`dc_...`), webhook secrets (`whsec_...`), bearer tokens and secret-named query parameters
// become `[redacted]`, wherever they appear (URL, header, body, error message). Redacting the
// finished line rather than chosen fields means a new log call cannot forget it.
import type { Writable } from 'node:stream';
import type { DestinationStream, LoggerOptions } from 'pino';

const REDACTED = '[redacted]';

const PATTERNS: Array<[RegExp, string]> = [
  // A key: `dc_` and its base64url body, wherever it sits (glued to other text in a mangled URL too).
  [/dc_[A-Za-z0-9_-]{16,}/g, `dc_${REDACTED}`],
  [/whsec_[A-Za-z0-9+/=_-]{8,}/g, `whsec_${REDACTED}`],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  // Query parameters that carry a credential by name, whatever the value looks like.
  [
    /([?&](?:api[_-]?key|key|token|access[_-]?token|secret|webhook[_-]?secret|password)=)(?!dc_\[redacted\]|whsec_\[redacted\])[^&#\s"\\]*/gi,
    `$1${REDACTED}`,
  ],
];

export function redactSecrets(text: string): string {
  let redacted = text;
  for (const [pattern, replacement] of PATTERNS) redacted = redacted.replace(pattern, replacement);
  return redacted;
}

/** A pino destination that redacts each finished line before it reaches `target`. */
export function redactingStream(target: Pick<Writable, 'write'>): DestinationStream {
  return {
    write(line: string) {
      target.write(redactSecrets(line));
    },
  };
}

/** pino options for every logger of the service (Fastify's and the worker's). */
export function loggerOptions(
  level: string,
  target: Pick<Writable, 'write'> = process.stdout,
): LoggerOptions & { stream: DestinationStream } {
  return { level, stream: redactingStream(target) };
}
