/**
 * The user profiles' system index (`.security-profile-8`, alias `.security-profile`) on the
 * node's own engine: hidden, one shard, written with `refresh=true` so that a suggestion finds
 * a profile as soon as it is activated. The names, e-mail addresses and full names are text
 * fields for the suggest API's prefix matching; labels are searched through `label_terms`
 * (`<key>=<value>` keywords), as Elasticsearch searches its flattened `labels` field.
 */
import type { SecurityDoc, VersionedDoc, VersionedIndexStore } from '@shoal/security';
import type { InternalClient, InternalResponse } from './internal-client.ts';

export const PROFILE_INDEX = '.security-profile-8';

const INDEX_BODY = {
  aliases: { '.security-profile': { is_hidden: true } },
  settings: { 'index.hidden': true, number_of_shards: 1, number_of_replicas: 0, auto_expand_replicas: '0-1' },
  mappings: {
    dynamic: false,
    properties: {
      user_profile: {
        properties: {
          uid: { type: 'keyword' },
          enabled: { type: 'boolean' },
          last_synchronized: { type: 'date' },
          label_terms: { type: 'keyword' },
          user: {
            properties: {
              username: { type: 'text' },
              roles: { type: 'keyword' },
              email: { type: 'text' },
              full_name: { type: 'text' },
              realm: { properties: { name: { type: 'keyword' }, type: { type: 'keyword' } } },
            },
          },
        },
      },
    },
  },
};

function fail(what: string, r: InternalResponse): Error {
  // The node's own client errors (a 409 version conflict, a 400) go back as they are.
  if (r.status < 500 && r.body?.error instanceof Error) return r.body.error;
  const reason = r.body?.error?.reason ?? JSON.stringify(r.body);
  return new Error(`profile index: ${what} failed with status ${r.status}: ${reason}`);
}

export class ProfileIndexStore<S> implements VersionedIndexStore {
  private ready: Promise<void> | undefined;

  constructor(
    private readonly client: InternalClient<S>,
    private readonly exists: () => boolean,
  ) {}

  private ensure(): Promise<void> {
    this.ready ??= (async () => {
      if (this.exists()) return;
      const r = await this.client.call('PUT', '/:index', { index: PROFILE_INDEX }, { body: INDEX_BODY });
      if (r.status !== 200 && r.body?.error?.type !== 'resource_already_exists_exception')
        throw fail('create', r);
    })();
    // A failed creation is tried again by the next call.
    this.ready.catch(() => {
      this.ready = undefined;
    });
    return this.ready;
  }

  async get(id: string): Promise<VersionedDoc | undefined> {
    if (!this.exists()) return undefined;
    const r = await this.client.call('GET', '/:index/_doc/:id', { index: PROFILE_INDEX, id });
    if (r.status === 404) return undefined;
    if (r.status !== 200) throw fail('get', r);
    return {
      id,
      doc: r.body._source as SecurityDoc,
      seqNo: r.body._seq_no,
      primaryTerm: r.body._primary_term,
    };
  }

  async put(
    id: string,
    doc: SecurityDoc,
    opts: { ifSeqNo?: number; ifPrimaryTerm?: number } = {},
  ): Promise<VersionedDoc> {
    await this.ensure();
    const query: Record<string, string> = { refresh: 'true' };
    if (opts.ifSeqNo !== undefined) query.if_seq_no = String(opts.ifSeqNo);
    if (opts.ifPrimaryTerm !== undefined) query.if_primary_term = String(opts.ifPrimaryTerm);
    const r = await this.client.call(
      'PUT',
      '/:index/_doc/:id',
      { index: PROFILE_INDEX, id },
      { query, body: doc },
    );
    if (r.status !== 200 && r.status !== 201) throw fail('write', r);
    return { id, doc, seqNo: r.body._seq_no, primaryTerm: r.body._primary_term };
  }

  async search(body: Record<string, unknown>) {
    if (!this.exists()) return { total: { value: 0, relation: 'eq' }, hits: [] };
    const r = await this.client.call(
      'POST',
      '/:index/_search',
      { index: PROFILE_INDEX },
      { body: { ...body, seq_no_primary_term: true } },
    );
    if (r.status !== 200) throw fail('search', r);
    const hits = r.body.hits.hits as {
      _id: string;
      _source: SecurityDoc;
      _seq_no: number;
      _primary_term: number;
    }[];
    return {
      total: r.body.hits.total as { value: number; relation: string },
      hits: hits.map((h) => ({ id: h._id, doc: h._source, seqNo: h._seq_no, primaryTerm: h._primary_term })),
    };
  }
}
