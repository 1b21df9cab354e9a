// Worker thread body of the documents' wording in a thread (refreshSearchDocuments with
// `inThread`): words each batch of rows it is sent (source-documents.ts' wordRows) and answers
// with the documents, until the thread is ended.
import { constants, setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { ThreadMessage } from '../threads.js';
import { type ChangedRow, type RowsToWord, wordRows } from './source-documents.js';

// The thread that reads the rows and writes the documents holds the database's write lock while
// it writes, and the API's event loop serves: both get the core first (Linux keeps a nice value
// per thread; elsewhere the call would lower the whole process, so it is left out there).
if (process.platform === 'linux') setPriority(constants.priority.PRIORITY_BELOW_NORMAL);

parentPort?.on('message', ({ id, body }: ThreadMessage<RowsToWord>) => {
  parentPort?.postMessage({ id, body: wordRows(body) } satisfies ThreadMessage<ChangedRow[]>);
});
