/**
 * A shard as a search with runtime fields sees it: the mapping's `runtime` section and the
 * request's `runtime_mappings` (which win) become fields of the mapping — shadowing a mapped
 * field of the same name, as in Elasticsearch — and of every segment, whose values are
 * computed on first use (runtime-values.ts) and cached per segment under the definitions in
 * force — for the last few sets of definitions only, so that searches each sending their own
 * `runtime_mappings` cannot grow a segment's memory without bound. Derived data the segments
 * and the reader cache (sort permutations, term statistics) is kept in the same per-definitions
 * caches, so a runtime field never meets the cached data of the mapped field it shadows. A
 * search without runtime fields gets the reader and mapping unchanged.
 */
import {
  flattenRuntimeFields,
  illegalArgument,
  type RuntimeFieldSpec,
  type RuntimeMappings,
  type RuntimeType,
  stringifyJson,
} from '@shoal/protocol';
import type { IndexMapping, ResolvedField } from '../contract.ts';
import { DEFAULT_DATE_FORMAT } from '../dates/index.ts';
import { Segment, type SegmentField } from '../index/segment.ts';
import type { ReaderSegment, ShardReader } from '../index/shard-reader.ts';
import { computeRuntimeField } from './runtime-values.ts';

/** How many sets of definitions a segment (or reader) keeps computed values for. */
const KEPT_DEFINITIONS = 4;

type Cache = Map<string, unknown>;
const caches = new WeakMap<object, Map<string, Cache>>();

/** The cache of `owner` (a segment or a reader) for one set of definitions; least recently used ones go. */
function cacheOf(owner: object, signature: string): Cache {
  let bySignature = caches.get(owner);
  if (!bySignature) {
    bySignature = new Map();
    caches.set(owner, bySignature);
    // A closed segment's computed values go with its own caches.
    if (owner instanceof Segment) owner.onClose(() => caches.delete(owner));
  }
  let cache = bySignature.get(signature);
  if (cache) {
    bySignature.delete(signature);
  } else {
    cache = new Map();
    if (bySignature.size >= KEPT_DEFINITIONS) bySignature.delete(bySignature.keys().next().value as string);
  }
  bySignature.set(signature, cache);
  return cache;
}

function cachedIn<T>(cache: Cache, key: string, compute: () => T): T {
  let v = cache.get(key) as T | undefined;
  if (v === undefined) {
    v = compute();
    cache.set(key, v);
  }
  return v;
}

export interface RuntimeScope {
  reader: ShardReader;
  mapping: IndexMapping;
}

function resolvedOf(name: string, spec: RuntimeFieldSpec): ResolvedField {
  const f: ResolvedField = {
    path: name,
    type: spec.type as RuntimeType,
    index: true,
    docValues: true,
    runtime: true,
  };
  if (spec.type === 'date') f.format = spec.format ?? DEFAULT_DATE_FORMAT;
  return f;
}

function wildcard(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
}

/** The runtime fields in force: the mapping's, then the request's over them; composites as their sub-fields. */
export function runtimeFieldsOf(mapping: IndexMapping, request?: RuntimeMappings): RuntimeMappings {
  const own = mapping.runtimeFields?.() ?? {};
  return flattenRuntimeFields(request ? { ...own, ...request } : own);
}

export function withRuntimeFields(
  reader: ShardReader,
  mapping: IndexMapping,
  request: RuntimeMappings | undefined,
  index: string,
): RuntimeScope {
  const defs = runtimeFieldsOf(mapping, request);
  const names = Object.keys(defs);
  if (names.length === 0) return { reader, mapping };
  const signature = stringifyJson(names.sort().map((n) => [n, defs[n]]));
  const resolved = new Map(names.map((n) => [n, resolvedOf(n, defs[n]!)]));

  const view = Object.create(mapping) as IndexMapping;
  view.field = (path) => resolved.get(path) ?? mapping.field(path);
  view.fieldsMatching = (pattern) => {
    const mapped = mapping.fieldsMatching(pattern).filter((f) => !resolved.has(f.path));
    const re = pattern.includes('*') ? wildcard(pattern) : null;
    const extra = [...resolved.values()].filter((f) => (re ? re.test(f.path) : f.path === pattern));
    return [...mapped, ...extra].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  };
  view.isObject = (path) => !resolved.has(path) && mapping.isObject(path);

  // Fields being computed, to refuse a field whose script reads itself (directly or not).
  const computing: string[] = [];
  const segments: ReaderSegment[] = reader.segments.map((rs) => {
    const seg = rs.segment;
    const proxy = Object.create(seg) as Segment;
    const own: ReaderSegment = { ...rs, segment: proxy };
    const cache = cacheOf(seg, signature);
    proxy.cached = <T>(key: string, compute: () => T): T => cachedIn(cache, key, compute);
    proxy.field = (path: string): SegmentField | undefined => {
      const spec = defs[path];
      if (!spec) return seg.field(path);
      return cachedIn(cache, `rt-field:${path}`, () => {
        if (computing.includes(path)) {
          throw illegalArgument(
            `Cyclic dependency detected while resolving runtime fields: ${[...computing, path].join(' -> ')}`,
          );
        }
        computing.push(path);
        try {
          return computeRuntimeField(path, spec, own, view, index);
        } finally {
          computing.pop();
        }
      });
    };
    return own;
  });

  const readerCache = cacheOf(reader, signature);
  const scoped: ShardReader = {
    id: reader.id,
    segments,
    maxDoc: reader.maxDoc,
    numDocs: reader.numDocs,
    release: () => reader.release(),
    cached: <T>(key: string, compute: () => T): T => cachedIn(readerCache, key, compute),
  };
  return { reader: scoped, mapping: view };
}
