// Long search work (indexing documents, embedding them, building the vector index) runs in the
// API process and, on SQLite, never waits on I/O: without a turn of the event loop between its
// chunks no request would be answered until it ends.

/** Lets the event loop answer what is waiting (requests, timers) before the work goes on. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
