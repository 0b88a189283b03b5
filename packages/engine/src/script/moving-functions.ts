/**
 * MovingFunctions, the functions moving_fn scripts call on their window (`values`): NaN
 * values are left out, as Elasticsearch's MovingFunctions leaves them out.
 */
import { num } from './members.ts';
import { ScriptRuntimeError } from './script-error.ts';
import type { StaticMember } from './statics.ts';

function window(v: unknown): number[] {
  if (!Array.isArray(v))
    throw new ScriptRuntimeError('illegal_argument_exception', 'expected the window of values');
  return v.map((x) => num(x)).filter((x) => !Number.isNaN(x));
}

export function movMax(values: number[]): number {
  return values.length === 0 ? Number.NaN : Math.max(...values);
}

export function movMin(values: number[]): number {
  return values.length === 0 ? Number.NaN : Math.min(...values);
}

export function movSum(values: number[]): number {
  return values.reduce((s, v) => s + v, 0);
}

export function unweightedAvg(values: number[]): number {
  return values.length === 0 ? Number.NaN : movSum(values) / values.length;
}

export function stdDev(values: number[], avg: number): number {
  if (Number.isNaN(avg) || values.length === 0) return Number.NaN;
  return Math.sqrt(values.reduce((s, v) => s + (v - avg) ** 2, 0) / values.length);
}

/** Weights 1, 2, 3, … from the oldest value; an empty window is NaN. */
export function linearWeightedAvg(values: number[]): number {
  let avg = 0;
  let totalWeight = 1;
  let current = 1;
  for (const v of values) {
    avg += v * current;
    totalWeight += current;
    current += 1;
  }
  return totalWeight === 1 ? Number.NaN : avg / totalWeight;
}

export function ewma(values: number[], alpha: number): number {
  let avg = Number.NaN;
  let first = true;
  for (const v of values) {
    if (first) {
      avg = v;
      first = false;
    } else avg = v * alpha + avg * (1 - alpha);
  }
  return avg;
}

/** Double exponential smoothing: the level and trend after the window, the next value forecast. */
export function holt(values: number[], alpha: number, beta: number): number {
  if (values.length === 0) return Number.NaN;
  let s = 0;
  let b = 0;
  let lastS = 0;
  let lastB = 0;
  values.forEach((v, i) => {
    if (i === 0) {
      s = v;
      b = 0;
    } else {
      s = alpha * v + (1 - alpha) * (lastS + lastB);
      b = beta * (s - lastS) + (1 - beta) * lastB;
    }
    lastS = s;
    lastB = b;
  });
  return s + b;
}

const fn = (call: (a: unknown[]) => number): StaticMember => ({ type: 'double', call });

export const MOVING_FUNCTIONS: Record<string, StaticMember> = {
  'MovingFunctions.max/1': fn((a) => movMax(window(a[0]))),
  'MovingFunctions.min/1': fn((a) => movMin(window(a[0]))),
  'MovingFunctions.sum/1': fn((a) => movSum(window(a[0]))),
  'MovingFunctions.unweightedAvg/1': fn((a) => unweightedAvg(window(a[0]))),
  'MovingFunctions.stdDev/2': fn((a) => stdDev(window(a[0]), num(a[1]))),
  'MovingFunctions.linearWeightedAvg/1': fn((a) => linearWeightedAvg(window(a[0]))),
  'MovingFunctions.ewma/2': fn((a) => ewma(window(a[0]), num(a[1]))),
  'MovingFunctions.holt/3': fn((a) => holt(window(a[0]), num(a[1]), num(a[2]))),
};
