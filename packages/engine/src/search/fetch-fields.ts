/**
 * The fetch phase's hook for `fields` and `docvalue_fields`: one `fields` JSON text per
 * fetched doc, beside its `_source`. Kept apart from fetch-phase.ts so a search without these
 * options runs none of it.
 */
import type { IndexMapping, ShardFetchRequest } from '../contract.ts';
import { type ReaderSegment, type ShardReader, segmentOf } from '../index/shard-reader.ts';
import { ScriptFieldsFetcher } from '../script/script-fields.ts';
import { hitFieldsJson, planFields } from './field-fetcher.ts';

export function fetchFieldsJson(
  reader: ShardReader,
  mapping: IndexMapping,
  req: ShardFetchRequest,
  index: string,
): string[] {
  const spec = req.fields!;
  const out: string[] = new Array(req.docs.length).fill('');
  if (!spec.fields && !spec.docValueFields && !spec.scriptFields && !spec.storedFields) return out;
  const plan = planFields(mapping, spec, index);
  const scripts = spec.scriptFields ? new ScriptFieldsFetcher(spec.scriptFields, mapping, index) : null;
  for (let i = 0; i < req.docs.length; i++) {
    const doc = req.docs[i]!;
    const rs: ReaderSegment = segmentOf(reader, doc);
    const local = doc - rs.docBase;
    const source = () => rs.segment.source(local);
    out[i] = hitFieldsJson(plan, rs, local, source, scripts?.values(rs, local, source));
  }
  return out;
}
