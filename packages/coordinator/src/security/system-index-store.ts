/**
 * The security system index on the node's own engine: a hidden, single-shard index whose
 * documents are written with `refresh=true` (security writes are rare, and a listing must see
 * them at once). Security reaches it only through this store; users reach it only as the
 * authorizer allows (it is a restricted index).
 */
import {
  SECURITY_INDEX,
  type SecurityDoc,
  type SystemIndexHits,
  type SystemIndexStore,
} from '@shoal/security';
import type { InternalClient, InternalResponse } from './internal-client.ts';

/**
 * The fields the `_query` APIs search, sort and aggregate on; everything else is kept in
 * `_source` only. `metadata_keyed` holds each metadata leaf as `path\0value` and
 * `metadata_values` the bare values, as a `flattened` field indexes them.
 */
const MAPPINGS = {
  dynamic: false,
  properties: {
    type: { type: 'keyword' },
    username: { type: 'keyword' },
    name: { type: 'keyword' },
    roles: { type: 'keyword' },
    enabled: { type: 'boolean' },
    email: { type: 'keyword' },
    full_name: { type: 'text' },
    description: { type: 'text' },
    api_key_type: { type: 'keyword' },
    creation_time: { type: 'date', format: 'epoch_millis' },
    expiration_time: { type: 'date', format: 'epoch_millis' },
    api_key_invalidated: { type: 'boolean' },
    invalidation_time: { type: 'date', format: 'epoch_millis' },
    creator: {
      properties: {
        principal: { type: 'keyword' },
        realm: { type: 'keyword' },
        realm_type: { type: 'keyword' },
      },
    },
    applications: {
      properties: {
        application: { type: 'keyword' },
        privileges: { type: 'keyword' },
        resources: { type: 'keyword' },
      },
    },
    application: { type: 'keyword' },
    metadata_keyed: { type: 'keyword' },
    metadata_values: { type: 'keyword' },
  },
};

const INDEX_BODY = {
  // `.security` is how Elasticsearch names it to users (an alias of `.security-7`).
  aliases: { '.security': { is_hidden: true } },
  settings: { 'index.hidden': true, number_of_shards: 1, number_of_replicas: 0, auto_expand_replicas: '0-1' },
  mappings: MAPPINGS,
};

/** More than any cluster's users or roles; the listing is one page. */
const LIST_SIZE = 10_000;

function fail(what: string, r: InternalResponse): Error {
  const reason = r.body?.error?.reason ?? JSON.stringify(r.body);
  return new Error(`security index: ${what} failed with status ${r.status}: ${reason}`);
}

export class SystemIndexDocStore<S> implements SystemIndexStore {
  private ready: Promise<void> | undefined;

  constructor(
    private readonly client: InternalClient<S>,
    private readonly exists: () => boolean,
    /** Resolves once the index's primary can serve (in a cluster, it may be opening on another node). */
    private readonly active: () => Promise<void> = () => Promise.resolve(),
  ) {}

  ensure(): Promise<void> {
    this.ready ??= (async () => {
      if (this.exists()) {
        await this.active();
        // An index made by an earlier version gains the fields added since.
        const m = await this.client.call(
          'PUT',
          '/:index/_mapping',
          { index: SECURITY_INDEX },
          { body: MAPPINGS },
        );
        if (m.status !== 200) throw fail('mapping update', m);
        return;
      }
      const r = await this.client.call('PUT', '/:index', { index: SECURITY_INDEX }, { body: INDEX_BODY });
      if (r.status !== 200 && r.body?.error?.type !== 'resource_already_exists_exception')
        throw fail('create', r);
      await this.active();
    })();
    return this.ready;
  }

  async get(id: string): Promise<SecurityDoc | undefined> {
    await this.ensure();
    const r = await this.client.call('GET', '/:index/_doc/:id', { index: SECURITY_INDEX, id });
    if (r.status === 404) return undefined;
    if (r.status !== 200) throw fail('get', r);
    return r.body._source as SecurityDoc;
  }

  async put(
    id: string,
    doc: SecurityDoc,
    opts: { create?: boolean } = {},
  ): Promise<'created' | 'updated' | 'exists'> {
    await this.ensure();
    const path = opts.create ? '/:index/_create/:id' : '/:index/_doc/:id';
    const r = await this.client.call(
      'PUT',
      path,
      { index: SECURITY_INDEX, id },
      { query: { refresh: 'true' }, body: doc },
    );
    if (r.status === 409) return 'exists';
    if (r.status !== 200 && r.status !== 201) throw fail('write', r);
    return r.body.result === 'created' ? 'created' : 'updated';
  }

  async delete(id: string): Promise<boolean> {
    await this.ensure();
    const r = await this.client.call(
      'DELETE',
      '/:index/_doc/:id',
      { index: SECURITY_INDEX, id },
      { query: { refresh: 'true' } },
    );
    if (r.status === 404) return false;
    if (r.status !== 200) throw fail('delete', r);
    return r.body.result === 'deleted';
  }

  async listByType(type: string): Promise<{ id: string; doc: SecurityDoc }[]> {
    await this.ensure();
    const r = await this.client.call(
      'POST',
      '/:index/_search',
      { index: SECURITY_INDEX },
      { body: { size: LIST_SIZE, query: { term: { type } }, sort: ['_doc'] } },
    );
    if (r.status !== 200) throw fail('search', r);
    return (r.body.hits.hits as { _id: string; _source: SecurityDoc }[]).map((h) => ({
      id: h._id,
      doc: h._source,
    }));
  }

  async search(body: Record<string, unknown>, opts: { typedKeys?: boolean } = {}): Promise<SystemIndexHits> {
    await this.ensure();
    const query: Record<string, string> = {};
    if (opts.typedKeys) query.typed_keys = 'true';
    const r = await this.client.call(
      'POST',
      '/:index/_search',
      { index: SECURITY_INDEX },
      { query, body: { ...body, track_total_hits: true } },
    );
    // A query the engine refuses is the caller's mistake: its own error (a 400) goes back.
    if (r.status !== 200) throw r.body?.error ?? fail('search', r);
    const hits = r.body.hits.hits as { _id: string; _source: SecurityDoc; sort?: unknown[] }[];
    const out: SystemIndexHits = {
      total: r.body.hits.total.value,
      hits: hits.map((h) =>
        h.sort ? { id: h._id, doc: h._source, sort: h.sort } : { id: h._id, doc: h._source },
      ),
    };
    if (r.body.aggregations) out.aggregations = r.body.aggregations;
    return out;
  }

  async getSettings(): Promise<Record<string, string>> {
    await this.ensure();
    const r = await this.client.call(
      'GET',
      '/:index/_settings',
      { index: SECURITY_INDEX },
      { query: { flat_settings: 'true' } },
    );
    if (r.status !== 200) throw fail('get settings', r);
    return (r.body[SECURITY_INDEX]?.settings ?? {}) as Record<string, string>;
  }

  async updateSettings(settings: Record<string, string | null>): Promise<void> {
    await this.ensure();
    const r = await this.client.call(
      'PUT',
      '/:index/_settings',
      { index: SECURITY_INDEX },
      { body: settings },
    );
    // A setting the index refuses is the caller's mistake: its own error (a 400) goes back.
    if (r.status !== 200) throw r.body?.error ?? fail('update settings', r);
  }
}
