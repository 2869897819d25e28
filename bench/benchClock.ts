/**
 * The bench clock, ms: wall time, or with BENCH_CLOCK=cpu this process's CPU time (user + system, all
 * threads: V8's parallel GC helpers count), which a machine shared with other jobs disturbs far less than
 * wall time.
 */
export const benchNow: () => number =
  process.env.BENCH_CLOCK === 'cpu'
    ? () => {
        const u = process.cpuUsage();
        return (u.user + u.system) / 1000;
      }
    : () => performance.now();
