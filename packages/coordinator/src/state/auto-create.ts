/**
 * `action.auto_create_index` as an error: the decision (first matching pattern wins, no match
 * forbids) is the protocol's `autoCreateDecision`; a refusal is Elasticsearch's
 * index_not_found_exception naming the rule.
 */
import { autoCreateDecision, ShoalError } from '@shoal/protocol';

/** Throws index_not_found_exception when the setting forbids creating `index`. */
export function checkAutoCreate(setting: string | undefined, index: string): void {
  const decision = autoCreateDecision((setting ?? 'true').trim() || 'true', index);
  if (decision.allowed) return;
  throw new ShoalError('index_not_found_exception', `no such index [${index}] and ${decision.reason}`, 404, {
    'resource.type': 'index_expression',
    'resource.id': index,
    index_uuid: '_na_',
    index,
  });
}
