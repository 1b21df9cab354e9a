// One thread of the analytics pool (analytics-pool.ts): opens its own read-only handle on the
// service's database and answers tasks with it. Nothing here writes.
import Tinypool from 'tinypool';
import type { DatabaseConfig } from '../config.js';
import { openStore } from '../storage/database.js';
import {
  type AnalyticsTaskName,
  runAnalyticsTask,
  type TaskOutcome,
  taskOutcome,
} from './analytics-tasks.js';

// The pool's workerData (tinypool keeps its own beside it in the thread's raw workerData).
const { database } = Tinypool.workerData as { database: DatabaseConfig };
const store = openStore(database, { readOnly: true });

export function answer(task: { name: AnalyticsTaskName; args: never }): Promise<TaskOutcome> {
  return taskOutcome(() => runAnalyticsTask(store.db, task.name, task.args));
}
