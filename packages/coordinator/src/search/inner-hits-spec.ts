/**
 * The `inner_hits` of a `collapse` (InnerHitBuilder as CollapseBuilder reads it): one
 * definition or an array of them, each named (the collapse field by default) with its paging —
 * `from` + `size` within index.max_inner_result_window — and its sort and fetch options, which
 * the expand phase (expand-phase.ts) hands to each group's search.
 */
import { illegalArgument, notImplemented, parsingException } from '@shoal/protocol';

export interface InnerHitsSpec {
  name: string;
  /** The inner search's body options (from, size, sort, _source, …). */
  options: Record<string, unknown>;
}

/** InnerHitBuilder's keys, as a collapse's inner hits take them. */
const KEYS = new Set([
  'name',
  'from',
  'size',
  'sort',
  '_source',
  'fields',
  'docvalue_fields',
  'stored_fields',
  'script_fields',
  'highlight',
  'explain',
  'version',
  'seq_no_primary_term',
  'track_scores',
  'ignore_unmapped',
  'collapse',
]);

/** index.max_inner_result_window's default. */
const MAX_INNER_RESULT_WINDOW = 100;

/** The collapse's inner_hits definitions (an object or an array of them), checked. */
export function innerHitsSpecs(field: string, raw: unknown): InnerHitsSpec[] {
  if (raw === undefined) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  const seen = new Set<string>();
  return list.map((def) => {
    if (typeof def !== 'object' || def === null || Array.isArray(def)) {
      throw parsingException('[inner_hits] expected an object');
    }
    const d = def as Record<string, unknown>;
    const options: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(d)) {
      if (!KEYS.has(k)) throw parsingException(`[inner_hits] unknown field [${k}]`);
      if (k === 'collapse') throw notImplemented('a second level of collapse inside inner_hits');
      if (k !== 'name' && k !== 'ignore_unmapped') options[k] = v;
    }
    const name = typeof d.name === 'string' ? d.name : field;
    if (seen.has(name)) throw illegalArgument(`[inner_hits] already contains an entry for key [${name}]`);
    seen.add(name);
    const from = typeof d.from === 'number' ? d.from : 0;
    const size = typeof d.size === 'number' ? d.size : 3;
    if (from + size > MAX_INNER_RESULT_WINDOW) {
      throw illegalArgument(
        `Inner result window is too large, the inner hit definition's [${name}]'s from + size must be less than or equal to: [${MAX_INNER_RESULT_WINDOW}] but was [${from + size}]. This limit can be set by changing the [index.max_inner_result_window] index level setting.`,
      );
    }
    options.from = from;
    options.size = size;
    return { name, options };
  });
}
