/**
 * The search benchmark's rows (servers/ and search.ts): each scenario's measurement, its
 * ratios to the ceilings and whether it met its target, and the table they are printed as.
 */
import type { Measurement } from './measure.ts';
import { fixed, int, medianRatio, printTable } from './report.ts';

export type RowId = 'a' | 'b' | 'c' | 'd' | 'e';

export interface Row {
  id: RowId;
  label: string;
  request: string;
  measurement?: Measurement;
  error?: string;
  vsA?: number;
  vsB?: number;
  /** Required ratio to (b). */
  target?: number;
  met?: boolean;
  responseBytes?: number;
  /** req/s of each round, in order. */
  rounds?: number[];
  /** Its ratio to (b) in each round, in order. */
  roundsVsB?: number[];
  /** A round that saw errors or non-2xx answers. */
  unclean?: Measurement;
}

/**
 * Each row's ratios to ceilings (a) and (b): the median over the rounds of the ratio within a
 * round; and whether it met its target.
 */
export function scoreRows(rows: Row[]): void {
  const aRounds = rows.find((r) => r.id === 'a')?.rounds;
  const bRounds = rows.find((r) => r.id === 'b')?.rounds;
  for (const r of rows) {
    if (!r.measurement) continue;
    const bad = r.unclean;
    if (bad) {
      r.error = `${bad.non2xx} non-2xx responses, ${bad.errors} errors, ${bad.timeouts} timeouts during a run`;
    }
    if (aRounds && r.id !== 'a') r.vsA = medianRatio(r.rounds ?? [], aRounds);
    if (bRounds && r.id !== 'a' && r.id !== 'b') {
      r.vsB = medianRatio(r.rounds ?? [], bRounds);
      r.roundsVsB = (r.rounds ?? []).map((x, i) => x / bRounds[i]!);
    }
    if (r.target !== undefined && r.vsB !== undefined) r.met = !r.error && r.vsB >= r.target;
  }
}

export function printRows(rows: Row[]): void {
  printTable(
    [
      '',
      'scenario',
      'req/s',
      'p50 µs',
      'p99 µs',
      'srv CPU µs/req',
      'main µs/req',
      'srv cores',
      'main cores',
      'gen cores',
      'other cores',
      'x(a)',
      'x(b)',
      'target',
      '',
      'rounds req/s',
      'rounds x(b)',
    ],
    rows.map((r) => {
      const m = r.measurement;
      return [
        `(${r.id})`,
        r.label,
        int(m?.reqPerSec),
        int(m?.p50Us),
        int(m?.p99Us),
        int(m?.serverCpuUsPerReq),
        int(m?.mainThreadCpuUsPerReq),
        fixed(m?.serverCores),
        fixed(m?.mainThreadCores),
        fixed(m?.loadgenCores),
        fixed(m?.otherCores),
        fixed(r.vsA),
        fixed(r.vsB),
        r.target === undefined ? '' : `>= ${r.target} x(b)`,
        r.target === undefined ? '' : r.met === undefined ? 'not measured' : r.met ? 'met' : 'NOT MET',
        (r.rounds ?? []).map((x) => int(x)).join(' '),
        (r.roundsVsB ?? []).map((x) => fixed(x)).join(' '),
      ];
    }),
  );
}
