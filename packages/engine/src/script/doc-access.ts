/**
 * `doc` in a script: `doc['f']` with a literal name goes straight to the document lookup; `doc`
 * itself is a read-only map over it, so the map allow-list serves `doc.f`, `doc['f']` and
 * `doc.containsKey('f')`.
 */
import type { Frame } from './frame.ts';
import { ScriptRuntimeError } from './script-error.ts';
import type { DocField, DocLookup } from './values.ts';

/** `doc['f']` with a literal name: straight to the lookup. */
export function docField(f: Frame, field: string): DocField {
  const d = f.ctx.doc;
  if (!d) throw new ScriptRuntimeError('illegal_argument_exception', 'cannot resolve symbol [doc]');
  return d.get(field);
}

/** `doc` as a script sees it: a map from field names to their values (`doc['f']`, `doc.f`, `doc.containsKey('f')`). */
export const DOC_PROXIES = new WeakMap<DocLookup, Map<string, unknown>>();

export function docProxy(d: DocLookup): unknown {
  let m = DOC_PROXIES.get(d);
  if (!m) {
    m = new DocMap(d);
    DOC_PROXIES.set(d, m);
  }
  return m;
}

/** A read-only Map over the doc lookup, so the map allow-list serves `doc` too. */
export class DocMap extends Map<string, unknown> {
  constructor(private readonly lookup: DocLookup) {
    super();
  }
  override get(key: string): unknown {
    return this.lookup.get(key);
  }
  override has(key: string): boolean {
    return this.lookup.has(key);
  }
  override set(): this {
    throw new ScriptRuntimeError('unsupported_operation_exception', 'doc is read-only');
  }
}
