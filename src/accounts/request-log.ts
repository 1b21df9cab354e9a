// Every keyed call is logged (time, route, status, charge). Entries are written in batches off
// the request path; close() writes what is left.
import type { Kysely } from 'kysely';
import { insertRequestLogs, type RequestLogEntry } from '../storage/repositories/request-log.js';
import type { Database } from '../storage/schema.js';

export class RequestLogWriter {
  private buffer: RequestLogEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly onError: (error: unknown) => void,
    private readonly flushEveryMs = 500,
    private readonly maxBuffered = 500,
  ) {}

  add(entry: RequestLogEntry): void {
    this.buffer.push(entry);
    if (this.buffer.length >= this.maxBuffered) {
      void this.flush();
      return;
    }
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushEveryMs);
      this.timer.unref();
    }
  }

  /** Writes everything buffered so far; resolves when it is stored. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const entries = this.buffer;
    this.buffer = [];
    this.writing = this.writing.then(async () => {
      if (entries.length === 0) return;
      try {
        await insertRequestLogs(this.db, entries);
      } catch (error) {
        this.onError(error);
      }
    });
    return this.writing;
  }
}
