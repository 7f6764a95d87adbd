/**
 * The load generator of bench/pages.bench.ts: autocannon in a process of its own (forked by the bench), so that
 * neither the servers measured nor the bench's bookkeeping share its event loop. Asked over IPC to drive one
 * origin with a list of paths for a number of seconds, it answers autocannon's figures and its own CPU time over
 * the run (process.cpuUsage), from which the bench prints its share of a core: near 100% would make it the limit.
 */
import autocannon from 'autocannon';

/** Parent to child: one run. */
export interface Drive {
  url: string;
  paths: string[];
  connections: number;
  seconds: number;
  /** Requests a second offered over all connections (autocannon's overallRate); none: as many as answered. */
  rate?: number;
}

/** Child to parent: what one run measured. */
export interface Driven {
  requests: number;
  /** Answers other than 2xx, errors (timeouts included): any of them makes the run worthless, the bench stops. */
  failures: number;
  seconds: number;
  p50: number;
  p99: number;
  /** This process's CPU time over the run, microseconds. */
  cpuUs: number;
}

async function drive(ask: Drive): Promise<Driven> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await autocannon({
    url: ask.url,
    connections: ask.connections,
    duration: ask.seconds,
    ...(ask.rate ? { overallRate: ask.rate } : {}),
    requests: ask.paths.map((path) => ({ method: 'GET', path })),
  });
  const spent = process.cpuUsage(cpu);
  return {
    requests: result.requests.total,
    failures: result.non2xx + result.errors,
    seconds: (performance.now() - started) / 1000,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUs: spent.user + spent.system,
  };
}

// Ends with the bench (its IPC channel closes when the parent ends, kill -9 included).
process.on('disconnect', () => process.exit(0));
process.on('message', (ask: Drive | { close: true }) => {
  if ('close' in ask) {
    process.disconnect();
    return;
  }
  drive(ask).then(
    (driven) => process.send!(driven),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
