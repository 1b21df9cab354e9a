// A database `serve` (or any command) cannot use is reported in one line that names the file and
// the problem, before anything listens: never a stack trace, never a server answering 500s.

export class DatabaseOpenError extends Error {}

const SQLITE_PROBLEMS: Record<string, string> = {
  SQLITE_NOTADB: 'is not a SQLite database',
  SQLITE_CORRUPT: 'is corrupt (restore a backup, or move it away to start empty)',
  SQLITE_CANTOPEN: 'cannot be opened (is it a directory, or is its folder missing or not writable?)',
  SQLITE_READONLY: 'is read-only, and the service must write to it',
  SQLITE_READONLY_DIRECTORY: 'lives in a read-only directory, and the service must write beside it',
  SQLITE_PERM: 'may not be written (permission denied)',
  SQLITE_IOERR: 'cannot be read or written (I/O error)',
  SQLITE_FULL: 'cannot grow: the disk is full',
  SQLITE_BUSY: 'is locked by another process for longer than the busy timeout',
};

const NETWORK_PROBLEMS: Record<string, string> = {
  ECONNREFUSED: 'refused the connection (is PostgreSQL running there?)',
  ENOTFOUND: 'has a host name that does not resolve',
  ETIMEDOUT: 'did not answer in time',
  EACCES: 'may not be opened (permission denied)',
  EISDIR: 'is a directory, not a database file',
};

function problemOf(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === 'string') {
    const known =
      SQLITE_PROBLEMS[code] ?? SQLITE_PROBLEMS[code.replace(/_[A-Z]+$/, '')] ?? NETWORK_PROBLEMS[code];
    if (known) return known;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `cannot be used: ${message.split('\n')[0]}`;
}

/** `database ./var/dcledger.db is not a SQLite database`: the target, then what is wrong with it. */
export function databaseOpenError(target: string, error: unknown): DatabaseOpenError {
  if (error instanceof DatabaseOpenError) return error;
  return new DatabaseOpenError(`database ${target} ${problemOf(error)}`);
}
