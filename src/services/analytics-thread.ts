// One thread of the analytics pool (analytics-pool.ts): opens its own read-only handle on the
// service's database and answers tasks with it. Nothing here writes.
import { constants, setPriority } from 'node:os';
import Tinypool from 'tinypool';
import type { DatabaseConfig } from '../config.js';
import { openStore } from '../storage/database.js';
import {
  type AnalyticsTaskName,
  runAnalyticsTask,
  type TaskOutcome,
  taskOutcome,
} from './analytics-tasks.js';

// A heavy call yields the core to the API thread when both want it, so a cheap call does not wait
// behind a ten-year scan. Linux keeps a nice value per thread, so this lowers this thread alone
// (elsewhere the same call would lower the whole process, API included, so it is left out there);
// raising one's own nice value needs no privilege.
if (process.platform === 'linux') setPriority(constants.priority.PRIORITY_BELOW_NORMAL);

// The pool's workerData (tinypool keeps its own beside it in the thread's raw workerData).
const { database } = Tinypool.workerData as { database: DatabaseConfig };
const store = openStore(database, { readOnly: true });

export function answer(task: { name: AnalyticsTaskName; args: never }): Promise<TaskOutcome> {
  return taskOutcome(() => runAnalyticsTask(store.db, task.name, task.args));
}
