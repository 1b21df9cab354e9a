import { describe, expect, it } from 'vitest';
import { ProcessesCpu, postgresBackends, serveNodeArgs, serveNodeArgsSetting } from './process.js';

describe('postgresBackends', () => {
  it("finds a database's backends and their parallel workers by process title, not autovacuum's or other databases'", () => {
    const titles = new Map<number, string>([
      [10, '/usr/lib/postgresql/15/bin/postgres -D /var/lib/postgresql/15/main'],
      [11, 'postgres: 15/main: checkpointer'],
      [20, 'postgres: 15/main: dcledger_ci dcledger_bench_scale_x4 127.0.0.1(40112) idle'],
      [21, 'postgres: 15/main: dcledger_ci dcledger_bench_scale_x40 127.0.0.1(40113) SELECT'],
      [22, 'postgres: dcledger_ci dcledger_bench_scale_x4 127.0.0.1(40114) SELECT'],
      [30, 'postgres: 15/main: parallel worker for PID 22'],
      [31, 'postgres: 15/main: parallel worker for PID 21'],
      [40, 'postgres: 15/main: autovacuum worker dcledger_bench_scale_x4'],
    ]);
    expect(postgresBackends('dcledger_bench_scale_x4', titles).sort()).toEqual([20, 22, 30]);
    expect(postgresBackends('dcledger_bench_scale_x40', titles).sort()).toEqual([21, 31]);
    expect(postgresBackends('postgres', titles)).toEqual([]);
  });
});

describe('ProcessesCpu', () => {
  it("counts what each process used since the start, a newcomer's whole time, and keeps an exited one's count", () => {
    let listed = [1, 2];
    const cpu = new Map<number, number>([
      [1, 500],
      [2, 1000],
    ]);
    const counter = new ProcessesCpu(
      () => listed,
      (pid) => cpu.get(pid),
      60_000,
    );
    expect(counter.ms()).toBe(0);
    cpu.set(1, 540);
    cpu.set(2, 1010);
    expect(counter.ms()).toBe(50);
    // Process 2 exits after 5 more ms, unread; process 3 appears having used 30 ms.
    cpu.delete(2);
    listed = [1, 3];
    cpu.set(3, 30);
    cpu.set(1, 550);
    expect(counter.ms()).toBe(90);
    counter.stop();
  });
});

describe('serveNodeArgs', () => {
  it("passes BENCH_SERVE_NODE_ARGS to the servers a bench starts, and says so in the report's command", () => {
    const before = process.env.BENCH_SERVE_NODE_ARGS;
    try {
      delete process.env.BENCH_SERVE_NODE_ARGS;
      expect(serveNodeArgs()).toEqual([]);
      expect(serveNodeArgsSetting()).toBe('');
      process.env.BENCH_SERVE_NODE_ARGS = '--max-semi-space-size=8';
      expect(serveNodeArgs()).toEqual(['--max-semi-space-size=8']);
      expect(serveNodeArgsSetting()).toBe('BENCH_SERVE_NODE_ARGS=--max-semi-space-size=8 ');
      process.env.BENCH_SERVE_NODE_ARGS = ' --max-semi-space-size=8  --max-old-space-size=512 ';
      expect(serveNodeArgs()).toEqual(['--max-semi-space-size=8', '--max-old-space-size=512']);
      expect(serveNodeArgsSetting()).toBe(
        "BENCH_SERVE_NODE_ARGS='--max-semi-space-size=8 --max-old-space-size=512' ",
      );
    } finally {
      if (before === undefined) delete process.env.BENCH_SERVE_NODE_ARGS;
      else process.env.BENCH_SERVE_NODE_ARGS = before;
    }
  });
});
