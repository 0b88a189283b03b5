/**
 * A realtime get as document- and field-level security see it: a document the user's role
 * queries do not match is not found, and its `_source` comes without the hidden fields.
 * Whether the document matches is asked of its shard by a count of its id under the document
 * filter; for a realtime get, a document not yet refreshed is made searchable first (a
 * realtime get of Elasticsearch 8 refreshes too when it must search).
 */
import { fieldPredicate, parseJson, stringifyJson, visibleSource } from '@shoal/protocol';
import { NOT_CANCELLABLE } from '@shoal/shard';
import type { ShardCopy } from '../shards/shard-table.ts';
import type { GotDocument } from './get-document.ts';
import type { ReadRestriction } from './read-restrictions.ts';

const encoder = new TextEncoder();

async function matchesFilter(
  copy: ShardCopy,
  got: GotDocument,
  r: ReadRestriction,
  realtime: boolean,
): Promise<boolean> {
  const worker = copy.worker!;
  const count = () =>
    worker.run({
      t: 'count',
      key: copy.key,
      query: { type: 'ids', values: [got.id], boost: 1 },
      cancel: NOT_CANCELLABLE,
      documentFilter: r.documentFilter!,
    });
  if ((await count()).count > 0) return true;
  if (!realtime) return false;
  await worker.run({ t: 'refresh', key: copy.key });
  return (await count()).count > 0;
}

export async function restrictedGet(
  copy: ShardCopy,
  got: GotDocument,
  r: ReadRestriction,
  realtime: boolean,
): Promise<GotDocument> {
  if (!got.found) return got;
  if (r.documentFilter && !(await matchesFilter(copy, got, r, realtime))) {
    return { found: false, id: got.id, index: got.index };
  }
  if (!r.fieldVisibility) return got;
  const visible = fieldPredicate(r.fieldVisibility);
  const out: GotDocument = { ...got };
  if (got.source && got.source.length > 0) {
    out.source = encoder.encode(stringifyJson(visibleSource(parseJson(got.source, '_source'), visible)));
  }
  if (got.ignored) {
    const ignored = got.ignored.filter(visible);
    if (ignored.length > 0) out.ignored = ignored;
    else delete out.ignored;
  }
  return out;
}
