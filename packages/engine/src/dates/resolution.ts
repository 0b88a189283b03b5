/**
 * `date` fields hold epoch millis (a JS number); `date_nanos` fields hold epoch nanos (a bigint,
 * since they exceed 2^53), limited to 1970-01-01 … 2262-04-11T23:47:16.854775807Z as in
 * Elasticsearch's DateUtils.toLong.
 */
import { illegalArgument } from '@shoal/protocol';
import { instantToString } from './instant-text.ts';
import type { InstantValue } from './parsed-fields.ts';

export type DateResolution = 'millis' | 'nanos';

const MAX_NANOS = 9223372036854775807n;

export function toResolution(v: InstantValue, resolution: DateResolution): number | bigint {
  if (resolution === 'millis') return v.millis;
  if (v.millis < 0) {
    throw illegalArgument(
      `date[${instantToString(v.millis, v.nanoOfMilli)}] is before the epoch in 1970 and cannot be stored in nanosecond resolution`,
    );
  }
  const nanos = BigInt(v.millis) * 1_000_000n + BigInt(v.nanoOfMilli);
  if (nanos > MAX_NANOS) {
    throw illegalArgument(
      `date[${instantToString(v.millis, v.nanoOfMilli)}] is after 2262-04-11T23:47:16.854775807 and cannot be stored in nanosecond resolution`,
    );
  }
  return nanos;
}

/** Splits a stored value back into millis + nano-of-milli. */
export function fromResolution(value: number | bigint, resolution: DateResolution): InstantValue {
  if (typeof value === 'bigint') {
    if (resolution === 'millis') return { millis: Number(value), nanoOfMilli: 0 };
    let millis = value / 1_000_000n;
    let rem = value % 1_000_000n;
    if (rem < 0n) {
      rem += 1_000_000n;
      millis -= 1n;
    }
    return { millis: Number(millis), nanoOfMilli: Number(rem) };
  }
  if (resolution === 'nanos') {
    const millis = Math.floor(value / 1_000_000);
    return { millis, nanoOfMilli: value - millis * 1_000_000 };
  }
  const millis = Math.floor(value);
  return { millis, nanoOfMilli: Math.round((value - millis) * 1_000_000) };
}
