/** Parsing helpers the parser tests share. */
import { toShoalError } from '../../errors/error-body.ts';
import { parseAggregations } from './parse-aggs.ts';
import type { AggSpec } from './spec.ts';

/** What parsing `aggs` fails with: status, type, reason, metadata and the cause's type and reason. */
export function failure(aggs: unknown) {
  try {
    parseAggregations(aggs);
  } catch (e) {
    const err = toShoalError(e);
    return {
      status: err.status,
      type: err.type,
      reason: err.reason,
      metadata: err.metadata,
      cause: err.causedBy && { type: err.causedBy.type, reason: err.causedBy.reason },
    };
  }
  throw new Error('expected a failure');
}

/** The first aggregation of `aggs`, parsed. */
export function one(aggs: Record<string, unknown>): AggSpec {
  return parseAggregations(aggs).aggs[0]!;
}
