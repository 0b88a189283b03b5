/**
 * The cardinality aggregation's counting (HyperLogLogPlusPlus): distinct values are kept exactly
 * up to `precision_threshold`; past it they go into a HyperLogLog sketch of 2^p one-byte
 * registers, p derived from the threshold as Elasticsearch derives it. Sketches merge by taking
 * each register's maximum, so shards and partial reduces combine in any order.
 *
 * Values hash to 64 bits (two murmur3_x86_32 hashes of the value's UTF-8 text): the top p bits
 * pick the register, the rank of the first set bit in the rest is what it keeps. The estimate is
 * linear counting while it is below the HLL++ threshold for p, the harmonic-mean estimate above.
 */
import { murmur3x86_32 } from '../../routing/murmur3.ts';
import type { CardinalityPartial } from './partial.ts';

export type DistinctValue = string | number | bigint;

const MIN_PRECISION = 4;
const MAX_PRECISION = 18;
const SEED_HIGH = 0;
const SEED_LOW = 0x5bd1e995;

/** HLL++ linear-counting thresholds, p = 4 … 18. */
const LINEAR_COUNTING_THRESHOLDS = [
  10, 20, 40, 80, 220, 400, 900, 1800, 3100, 6500, 11500, 20000, 50000, 120000, 350000,
];

/** HyperLogLogPlusPlus.precisionFromThreshold: enough registers for the threshold's hash table. */
export function precisionFromThreshold(threshold: number): number {
  const entries = Math.ceil(threshold / 0.75);
  const bits = Math.max(1, Math.ceil(Math.log2(entries * 4 + 1)));
  return Math.min(MAX_PRECISION, Math.max(MIN_PRECISION, bits));
}

const utf8 = new TextEncoder();

/** The value's text that is hashed: the same value hashes the same on every shard. */
function hashText(v: DistinctValue): string {
  return typeof v === 'string' ? v : `\u0000${v}`;
}

/** Writes the 64-bit hash of `v` as [high, low] unsigned 32-bit words into `out`. */
export function hashValue(v: DistinctValue, out: Uint32Array): void {
  const bytes = utf8.encode(hashText(v));
  out[0] = murmur3x86_32(bytes, SEED_HIGH) >>> 0;
  out[1] = murmur3x86_32(bytes, SEED_LOW) >>> 0;
}

/** Records one hash in the registers. */
export function addHash(registers: Uint8Array, p: number, high: number, low: number): void {
  const index = high >>> (32 - p);
  const rest = (high << p) >>> 0;
  const rank = rest !== 0 ? Math.clz32(rest) + 1 : 32 - p + (low !== 0 ? Math.clz32(low) : 32) + 1;
  if (rank > registers[index]!) registers[index] = rank;
}

const scratch = new Uint32Array(2);

export function addValue(registers: Uint8Array, p: number, v: DistinctValue): void {
  hashValue(v, scratch);
  addHash(registers, p, scratch[0]!, scratch[1]!);
}

export function newRegisters(p: number): Uint8Array {
  return new Uint8Array(1 << p);
}

/** The estimated number of distinct values the registers saw. */
export function estimate(registers: Uint8Array, p: number): number {
  const m = registers.length;
  let sum = 0;
  let zeros = 0;
  for (let i = 0; i < m; i++) {
    const r = registers[i]!;
    if (r === 0) zeros++;
    sum += 2 ** -r;
  }
  if (zeros > 0) {
    const linear = m * Math.log(m / zeros);
    if (linear <= LINEAR_COUNTING_THRESHOLDS[p - MIN_PRECISION]!) return Math.round(linear);
  }
  const alpha = 0.7213 / (1 + 1.079 / m);
  return Math.round((alpha * m * m) / sum);
}

/** The cardinality a partial stands for. */
export function cardinalityOf(c: CardinalityPartial): number {
  if (c.registers) return estimate(c.registers, c.precision);
  return c.values?.length ?? 0;
}

/** Merges partials of the same aggregation: a union while it stays under the threshold. */
export function mergeCardinality(
  parts: readonly CardinalityPartial[],
  threshold: number,
): CardinalityPartial {
  const p = parts[0]?.precision ?? precisionFromThreshold(threshold);
  let registers: Uint8Array | undefined;
  const values = new Set<DistinctValue>();
  for (const part of parts) {
    if (part.registers) {
      registers ??= newRegisters(p);
      const r = part.registers;
      for (let i = 0; i < r.length; i++) if (r[i]! > registers[i]!) registers[i] = r[i]!;
    }
    for (const v of part.values ?? []) values.add(v);
  }
  if (!registers && values.size <= threshold) return { t: 'cardinality', values: [...values], precision: p };
  registers ??= newRegisters(p);
  for (const v of values) addValue(registers, p, v);
  return { t: 'cardinality', registers, precision: p };
}
