/**
 * The fields a top-level query sees. In Elasticsearch the objects of a `nested` field are
 * separate hidden documents, so a query that is not a `nested` query never matches their
 * fields; Shoal indexes nested objects flattened into their parent, so it hides those fields
 * from top-level queries instead of matching across objects (which would be a wrong result).
 * The `nested` query itself answers 501.
 */
import type { IndexMapping, ResolvedField } from '../contract.ts';

const views = new WeakMap<IndexMapping, IndexMapping>();

function insideNested(mapping: IndexMapping, path: string, memo: Map<string, boolean>): boolean {
  let hit = memo.get(path);
  if (hit !== undefined) return hit;
  hit = false;
  for (let dot = path.indexOf('.'); dot >= 0; dot = path.indexOf('.', dot + 1)) {
    if (mapping.isNested(path.slice(0, dot))) {
      hit = true;
      break;
    }
  }
  memo.set(path, hit);
  return hit;
}

/** A view of `mapping` without the fields inside nested objects (and the nested objects themselves). */
export function topLevelFields(mapping: IndexMapping): IndexMapping {
  const cached = views.get(mapping);
  if (cached) return cached;
  const memo = new Map<string, boolean>();
  const hidden = (path: string) => insideNested(mapping, path, memo);
  const view: IndexMapping = {
    toJSON: () => mapping.toJSON(),
    toDisplayJSON: () => mapping.toDisplayJSON(),
    merge: (update) => mapping.merge(update),
    parseDocument: (id, source, routing) => mapping.parseDocument(id, source, routing),
    isNested: (path) => mapping.isNested(path),
    get routingRequired() {
      return mapping.routingRequired;
    },
    isObject: (path) => mapping.isObject(path) && !mapping.isNested(path) && !hidden(path),
    field: (path): ResolvedField | undefined => (hidden(path) ? undefined : mapping.field(path)),
    fieldsMatching: (pattern) => mapping.fieldsMatching(pattern).filter((f) => !hidden(f.path)),
  };
  views.set(mapping, view);
  return view;
}
