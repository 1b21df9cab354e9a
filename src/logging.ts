// Every log line of the service passes through one redaction before it is written: API keys
// (`dc_...`), webhook secrets (`whsec_...`), bearer tokens and secret-named query parameters
// become `[redacted]`, wherever they appear (URL, header, body, error message). Redacting the
// finished line rather than chosen fields means a new log call cannot forget it.
import type { Writable } from 'node:stream';
import type { DestinationStream, LoggerOptions } from 'pino';

const REDACTED = '[redacted]';

const KEY_SHAPED = /dc_[A-Za-z0-9_-]{16,}/;

const PATTERNS: Array<[RegExp, string]> = [
  // A key: `dc_` and its base64url body, wherever it sits (glued to other text in a mangled URL too).
  [/dc_[A-Za-z0-9_-]{16,}/g, `dc_${REDACTED}`],
  [/whsec_[A-Za-z0-9+/=_-]{8,}/g, `whsec_${REDACTED}`],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
];

/** Names of query parameters whose value is a credential, whatever it looks like. */
const SECRET_NAME = /pass|pwd|secret|token|key|auth|credential|session|cookie/i;

/** A URL-ish run holding percent-escapes, e.g. `dc%5Fabc…` or `dc%255F…` (encoded twice). */
const ENCODED_RUN = /[A-Za-z0-9_.~+-]*%[0-9A-Fa-f]{2}[A-Za-z0-9_.~+%-]*/g;

/** A query parameter: its separator, name and value (up to the next separator or the line's quote). */
const PARAMETER = /([?&])([^=&#\s"\\]+)=([^&#\s"\\]*)/g;

/** Percent-escapes decoded byte by byte, up to three times over; never throws. */
function decoded(text: string): string {
  let current = text;
  for (let round = 0; round < 3 && current.includes('%'); round += 1) {
    const next = current.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
    if (next === current) break;
    current = next;
  }
  return current;
}

export function redactSecrets(text: string): string {
  let redacted = text;
  for (const [pattern, replacement] of PATTERNS) redacted = redacted.replace(pattern, replacement);
  // A key percent-encoded (in a parameter of another name, or a path) is a key once decoded.
  redacted = redacted.replace(ENCODED_RUN, (run) => (KEY_SHAPED.test(decoded(run)) ? REDACTED : run));
  // Parameters named like a credential (`password`, `passwd`, `api_key`, `x-token`, ...), their
  // names decoded first: the value goes whatever its shape.
  return redacted.replace(PARAMETER, (whole, separator: string, name: string, value: string) =>
    value === '' || value.endsWith(REDACTED) || !SECRET_NAME.test(decoded(name))
      ? whole
      : `${separator}${name}=${REDACTED}`,
  );
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
