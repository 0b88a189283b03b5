/**
 * The `latest` function's configuration (LatestConfig): the fields that identify an entity
 * (`unique_key`) and the field whose highest value makes a document the entity's latest (`sort`).
 */
import { actionRequestValidation, illegalArgument } from '@shoal/protocol';
import { type BodyReader, objectAt } from './strict-body.ts';

export interface LatestConfig {
  uniqueKey: string[];
  sort: string;
  json: Record<string, unknown>;
}

export function parseLatest(r: BodyReader, v: unknown): LatestConfig {
  const o = objectAt('latest_config', v);
  r.known('latest_config', o, ['unique_key', 'sort']);
  if (o.unique_key === undefined) throw illegalArgument('Required [unique_key]');
  if (o.sort === undefined) throw illegalArgument('Required [sort]');
  const keys = (Array.isArray(o.unique_key) ? o.unique_key : [o.unique_key]).map(String);
  const sort = String(o.sort);
  const problems: string[] = [];
  if (keys.length === 0) problems.push('latest.unique_key must be non-empty');
  const seen = new Set<string>();
  keys.forEach((k, i) => {
    if (k === '') problems.push(`latest.unique_key[${i}] element must be non-empty`);
    else if (seen.has(k))
      problems.push(`latest.unique_key elements must be unique, found duplicate element [${k}]`);
    seen.add(k);
  });
  if (sort === '') problems.push('latest.sort must be non-empty');
  if (problems.length > 0) throw actionRequestValidation(problems);
  return { uniqueKey: keys, sort, json: { unique_key: keys, sort } };
}
