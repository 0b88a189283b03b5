/**
 * A failure of the coordinator's final reduce. Elasticsearch reduces the shards' aggregations at
 * the start of its fetch phase (FetchSearchPhase, through QueryPhaseResultConsumer.reduce), so
 * what the reduce throws reaches the client as that phase's failure
 * (AbstractSearchAsyncAction.onPhaseFailure): a `search_phase_execution_exception` of phase
 * `fetch` with an empty reason, no failed shards (hence no root cause), the reduce's exception as
 * its `caused_by`, and that exception's status (SearchPhaseExecutionException.status with no
 * shard failures).
 */
import { ShoalError } from '../../errors/shoal-error.ts';

export function reducePhaseFailure(cause: ShoalError): ShoalError {
  return new ShoalError('search_phase_execution_exception', '', cause.status, { phase: 'fetch' }, cause, {
    shardFailures: [],
  });
}
