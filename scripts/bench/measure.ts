/**
 * One load measurement: autocannon as a library against a server on 127.0.0.1, a warm-up run
 * that is thrown away, then the measured run. autocannon's own histogram has 1 ms resolution,
 * so the percentiles come from the per-response times it reports (`response` event, from
 * process.hrtime). Server CPU is utime+stime of the server process (all its threads) from
 * /proc/<pid>/stat, over the measured run; its main thread's share comes from
 * /proc/<pid>/task/<pid>/stat.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { withAuth } from '../credentials.ts';

export interface LoadTarget {
  url: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** A new body for every request (replaces `body`). */
  makeBody?: () => string;
  /** The server process whose CPU time is measured. */
  pid: number;
  /** The Authorization header to send instead of the `elastic` user's Basic credentials. */
  authorization?: string;
}

export interface LoadOptions {
  connections: number;
  durationS: number;
  warmupS: number;
}

export interface Measurement {
  /** 2xx responses in the measured run. */
  responses: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  seconds: number;
  reqPerSec: number;
  p50Us: number;
  p90Us: number;
  p99Us: number;
  maxUs: number;
  /** Server CPU (utime+stime, all threads) per 2xx response. */
  serverCpuUsPerReq: number;
  /** Server CPU in cores (CPU seconds per wall second). */
  serverCores: number;
  /** The server's main thread alone (HTTP, routing, fan-out and merge), per 2xx response. */
  mainThreadCpuUsPerReq: number;
  /** The server's main thread alone, in cores. */
  mainThreadCores: number;
  /** This process's CPU (the load generator) in cores. */
  loadgenCores: number;
  /**
   * CPU the rest of the machine used meanwhile, in cores (machine busy − server − load
   * generator): other programs competing for the cores, or the server's helper processes.
   */
  otherCores: number;
}

/** Caps the requests of a run at this rate times its duration. */
const MAX_REQ_PER_SEC = 250_000;

let clockTicks: number | undefined;

function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** utime+stime of a process (every thread), in µs. */
export function processCpuUs(pid: number): number {
  return statCpuUs(`/proc/${pid}/stat`);
}

/**
 * CPU time the whole machine spent in processes (user, nice, system, steal; all cores, from
 * /proc/stat), in µs. Interrupt and softirq time is left out: loopback networking is charged
 * there, to no process, and it is part of any HTTP benchmark rather than a disturbance.
 */
export function machineBusyUs(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  // cpu  user nice system idle iowait irq softirq steal …
  const busy = [f[0], f[1], f[2], f[7]].reduce<number>((sum, v) => sum + (v ?? 0), 0);
  return (busy * 1e6) / ticksPerSecond();
}

/** utime+stime of a process's main thread (the event loop of a Node process), in µs. */
export function mainThreadCpuUs(pid: number): number {
  return statCpuUs(`/proc/${pid}/task/${pid}/stat`);
}

function statCpuUs(file: string): number {
  const stat = readFileSync(file, 'utf8');
  // Fields after the command name (which may contain spaces) start at field 3 (state).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1e6) / ticksPerSecond();
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

function cannon(
  target: LoadTarget,
  connections: number,
  durationS: number,
  onResponse?: (statusCode: number, responseTimeMs: number) => void,
): Promise<autocannon.Result> {
  const { hostname } = new URL(target.url);
  if (hostname !== '127.0.0.1') throw new Error(`refusing to load ${target.url}: not 127.0.0.1`);
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: new URL(target.path, target.url).href,
        method: target.method,
        body: target.body,
        headers: {
          ...withAuth(
            target.body === undefined && !target.makeBody ? {} : { 'content-type': 'application/json' },
          ),
          ...(target.authorization === undefined ? {} : { authorization: target.authorization }),
        },
        connections,
        duration: durationS,
        // A second bound besides time: far above what one loopback server can answer.
        maxOverallRequests: Math.ceil(durationS * MAX_REQ_PER_SEC),
        timeout: 10,
        ...(target.makeBody
          ? {
              requests: [
                {
                  setupRequest: (req: autocannon.Request) => ({ ...req, body: target.makeBody!() }),
                },
              ],
            }
          : {}),
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    if (onResponse) instance.on('response', (_client, status, _bytes, ms) => onResponse(status, ms));
  });
}

export async function measure(target: LoadTarget, opts: LoadOptions): Promise<Measurement> {
  if (opts.warmupS > 0) await cannon(target, opts.connections, opts.warmupS);
  let latencies = new Float64Array(1 << 16);
  let n = 0;
  let non2xx = 0;
  const cpu0 = processCpuUs(target.pid);
  const main0 = mainThreadCpuUs(target.pid);
  const machine0 = machineBusyUs();
  const self0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const result = await cannon(target, opts.connections, opts.durationS, (status, ms) => {
    if (status < 200 || status >= 300) {
      non2xx++;
      return;
    }
    if (n === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[n++] = ms * 1000;
  });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const self = process.cpuUsage(self0);
  const cpuUs = processCpuUs(target.pid) - cpu0;
  const mainUs = mainThreadCpuUs(target.pid) - main0;
  const machineUs = machineBusyUs() - machine0;
  const selfUs = self.user + self.system;
  const sorted = latencies.subarray(0, n).sort();
  return {
    responses: n,
    non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    seconds,
    reqPerSec: n / seconds,
    p50Us: percentile(sorted, 50),
    p90Us: percentile(sorted, 90),
    p99Us: percentile(sorted, 99),
    maxUs: n > 0 ? sorted[n - 1]! : Number.NaN,
    serverCpuUsPerReq: n > 0 ? cpuUs / n : Number.NaN,
    serverCores: cpuUs / 1e6 / seconds,
    mainThreadCpuUsPerReq: n > 0 ? mainUs / n : Number.NaN,
    mainThreadCores: mainUs / 1e6 / seconds,
    loadgenCores: selfUs / 1e6 / seconds,
    otherCores: Math.max(0, machineUs - cpuUs - selfUs) / 1e6 / seconds,
  };
}

/** True when the run had no failures at all. */
export function clean(m: Measurement): boolean {
  return m.non2xx === 0 && m.errors === 0 && m.timeouts === 0 && m.responses > 0;
}
