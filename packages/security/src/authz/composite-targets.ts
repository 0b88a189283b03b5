/**
 * The per-item targets of requests that carry their indices in the body (Elasticsearch's
 * CompositeIndicesRequest): `_bulk` lines, `_mget` docs, `POST /_aliases` actions. Each item is
 * authorized for its own action on its own index.
 */

export interface ItemTarget {
  action: string;
  index: string;
  /** The write would create the index when it is missing. */
  mayCreate: boolean;
  /** A `_bulk` item's place among the request's items (its action lines), from 0. */
  position?: number;
}

const BULK_ITEM_ACTIONS: Record<string, string> = {
  index: 'indices:data/write/index:op_type/index',
  create: 'indices:data/write/index:op_type/create',
  update: 'indices:data/write/update',
  delete: 'indices:data/write/delete',
};

/** The action lines of an NDJSON bulk body (sources skipped; malformed lines left to the handler). */
export function bulkTargets(body: Buffer | undefined, defaultIndex: string | undefined): ItemTarget[] {
  if (!body) return [];
  const out: ItemTarget[] = [];
  const text = body.toString('utf8');
  let pos = 0;
  let position = 0;
  let expectSource = false;
  while (pos < text.length) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = text.length;
    const line = text.slice(pos, end).trim();
    pos = end + 1;
    if (line === '') continue;
    if (expectSource) {
      expectSource = false;
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return out;
    }
    if (typeof parsed !== 'object' || parsed === null) return out;
    const [op, meta] = Object.entries(parsed as Record<string, unknown>)[0] ?? [];
    if (op === undefined) return out;
    const action = BULK_ITEM_ACTIONS[op];
    if (!action) return out;
    const m = (meta ?? {}) as Record<string, unknown>;
    const index = typeof m._index === 'string' ? m._index : defaultIndex;
    if (index !== undefined) out.push({ action, index, mayCreate: op !== 'delete', position });
    position++;
    expectSource = op !== 'delete';
  }
  return out;
}

/** Each `_mget` item is authorized as the shard-level action it runs as (TransportShardMultiGetAction). */
const MGET_SHARD = 'indices:data/read/mget[shard]';

export function mgetTargets(json: unknown, defaultIndex: string | undefined): ItemTarget[] {
  const out: ItemTarget[] = [];
  const docs = (json as { docs?: unknown } | undefined)?.docs;
  if (Array.isArray(docs)) {
    for (const d of docs) {
      const index =
        typeof (d as { _index?: unknown })?._index === 'string'
          ? (d as { _index: string })._index
          : defaultIndex;
      if (index !== undefined) out.push({ action: MGET_SHARD, index, mayCreate: false });
    }
  } else if (defaultIndex !== undefined) {
    out.push({ action: MGET_SHARD, index: defaultIndex, mayCreate: false });
  }
  return out;
}

function names(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return [];
}

/** `POST /_aliases`: both the indices and the aliases of each action, and `remove_index`'s deletion. */
export function aliasActionTargets(json: unknown): ItemTarget[] {
  const out: ItemTarget[] = [];
  const actions = (json as { actions?: unknown } | undefined)?.actions;
  if (!Array.isArray(actions)) return out;
  for (const a of actions) {
    if (typeof a !== 'object' || a === null) continue;
    for (const [kind, spec] of Object.entries(a as Record<string, unknown>)) {
      const s = (spec ?? {}) as Record<string, unknown>;
      const indices = [...names(s.index), ...names(s.indices)];
      if (kind === 'remove_index') {
        for (const index of indices) out.push({ action: 'indices:admin/delete', index, mayCreate: false });
        continue;
      }
      for (const index of [...indices, ...names(s.alias), ...names(s.aliases)]) {
        out.push({ action: 'indices:admin/aliases', index, mayCreate: false });
      }
    }
  }
  return out;
}

const SEARCH = 'indices:data/read/search';

/** A comma list or an array of index names, each one. */
function nameList(v: unknown): string[] {
  const list = Array.isArray(v) ? v.map(String) : typeof v === 'string' ? v.split(',') : [];
  return list.map((x) => x.trim()).filter((x) => x !== '');
}

/**
 * `_msearch` (and `_msearch/template`): each search is authorized as a search of the indices
 * its header names, or the path's, or every index (TransportMultiSearchAction runs each as a
 * search request of its own).
 */
export function msearchTargets(body: Buffer | undefined, defaultIndex: string | undefined): ItemTarget[] {
  if (!body) return [];
  const lines = body.toString('utf8').split('\n');
  const out: ItemTarget[] = [];
  for (let i = 0; i + 1 < lines.length; i += 2) {
    let header: Record<string, unknown> = {};
    const line = lines[i]!.trim();
    if (line !== '') {
      try {
        const parsed = JSON.parse(line) as unknown;
        if (typeof parsed === 'object' && parsed !== null) header = parsed as Record<string, unknown>;
      } catch {
        return out;
      }
    }
    const given = nameList(header.index ?? header.indices);
    const targets = given.length > 0 ? given : nameList(defaultIndex);
    for (const index of targets.length > 0 ? targets : ['_all'])
      out.push({ action: SEARCH, index, mayCreate: false });
  }
  return out;
}

/**
 * `_reindex`: a search of each source index and a write into the destination, as the user
 * (Elasticsearch runs the reindex's scroll and bulk requests with the caller's privileges).
 */
export function reindexTargets(json: unknown): ItemTarget[] {
  if (typeof json !== 'object' || json === null) return [];
  const body = json as { source?: { index?: unknown }; dest?: { index?: unknown; op_type?: unknown } };
  const out: ItemTarget[] = [];
  for (const index of nameList(body.source?.index)) out.push({ action: SEARCH, index, mayCreate: false });
  const dest = typeof body.dest?.index === 'string' ? body.dest.index : undefined;
  if (dest !== undefined) {
    const action =
      body.dest?.op_type === 'create'
        ? 'indices:data/write/index:op_type/create'
        : 'indices:data/write/index:op_type/index';
    out.push({ action, index: dest, mayCreate: true });
  }
  return out;
}
