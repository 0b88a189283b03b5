/**
 * Where transforms live (Elasticsearch's IndexBasedTransformConfigManager): the hidden internal
 * index `.transform-internal-007` holds each transform's configuration
 * (`data_frame_transform_config-<id>`, with who created it), its state and stats
 * (`data_frame_transform_state_and_stats-<id>`) and its checkpoints
 * (`data_frame_transform_checkpoint-<id>-<n>`); `.transform-notifications-000002` holds the
 * audit messages. Both are written through the node's own handlers, as the security index is.
 */
import type { InternalClient, InternalResponse } from '../security/internal-client.ts';
import type { NodeServices } from '../services.ts';
import type { StoredAuthorization } from './transform-privileges.ts';

export const TRANSFORM_INTERNAL_INDEX = '.transform-internal-007';
export const TRANSFORM_NOTIFICATIONS_INDEX = '.transform-notifications-000002';

const HIDDEN = {
  'index.hidden': true,
  number_of_shards: 1,
  number_of_replicas: 0,
  auto_expand_replicas: '0-1',
};

const INTERNAL_BODY = {
  settings: HIDDEN,
  mappings: {
    dynamic: false,
    properties: {
      doc_type: { type: 'keyword' },
      id: { type: 'keyword' },
      checkpoint: { type: 'long' },
    },
  },
};

const NOTIFICATIONS_BODY = {
  aliases: { '.transform-notifications-read': { is_hidden: true } },
  settings: HIDDEN,
  mappings: {
    dynamic: false,
    properties: {
      transform_id: { type: 'keyword' },
      level: { type: 'keyword' },
      message: { type: 'text' },
      timestamp: { type: 'date' },
      node_name: { type: 'keyword' },
    },
  },
};

export interface StoredConfig {
  /** The configuration as `GET /_transform` shows it (with version and create_time). */
  config: Record<string, unknown>;
  authorization?: StoredAuthorization;
}

const configId = (id: string) => `data_frame_transform_config-${id}`;
const stateId = (id: string) => `data_frame_transform_state_and_stats-${id}`;
const checkpointId = (id: string, n: number) => `data_frame_transform_checkpoint-${id}-${n}`;

function fail(what: string, r: InternalResponse): Error {
  const reason = r.body?.error?.reason ?? JSON.stringify(r.body);
  return new Error(`transform index: ${what} failed with status ${r.status}: ${reason}`);
}

export class TransformStore {
  private ready: Promise<void> | undefined;

  constructor(
    private readonly client: InternalClient<NodeServices>,
    private readonly s: NodeServices,
  ) {}

  private ensure(): Promise<void> {
    this.ready ??= (async () => {
      for (const [index, body] of [
        [TRANSFORM_INTERNAL_INDEX, INTERNAL_BODY],
        [TRANSFORM_NOTIFICATIONS_INDEX, NOTIFICATIONS_BODY],
      ] as const) {
        if (this.s.indices.get(index)) continue;
        const r = await this.client.call('PUT', '/:index', { index }, { body });
        if (r.status !== 200 && r.body?.error?.type !== 'resource_already_exists_exception') {
          this.ready = undefined;
          throw fail(`create ${index}`, r);
        }
      }
    })();
    return this.ready;
  }

  /**
   * `refresh`: configurations and checkpoints are listed and found by search, so they are
   * visible at once; the state, saved after every page, is read back by id (a realtime get).
   */
  private async put(
    id: string,
    doc: Record<string, unknown>,
    create = false,
    refresh = true,
  ): Promise<boolean> {
    await this.ensure();
    const r = await this.client.call(
      'PUT',
      create ? '/:index/_create/:id' : '/:index/_doc/:id',
      { index: TRANSFORM_INTERNAL_INDEX, id },
      { query: { refresh: String(refresh) }, body: doc },
    );
    if (r.status === 409) return false;
    if (r.status !== 200 && r.status !== 201) throw fail('write', r);
    return true;
  }

  private async get(id: string): Promise<Record<string, unknown> | undefined> {
    if (!this.s.indices.get(TRANSFORM_INTERNAL_INDEX)) return undefined;
    const r = await this.client.call('GET', '/:index/_doc/:id', { index: TRANSFORM_INTERNAL_INDEX, id });
    if (r.status === 404) return undefined;
    if (r.status !== 200) throw fail('get', r);
    return r.body._source as Record<string, unknown>;
  }

  /** Stores a new configuration; false when the id is taken. */
  createConfig(id: string, stored: StoredConfig): Promise<boolean> {
    return this.put(configId(id), { doc_type: 'data_frame_transform_config', ...stored }, true);
  }

  async updateConfig(id: string, stored: StoredConfig): Promise<void> {
    await this.put(configId(id), { doc_type: 'data_frame_transform_config', ...stored });
  }

  async getConfig(id: string): Promise<StoredConfig | undefined> {
    const doc = await this.get(configId(id));
    return doc === undefined
      ? undefined
      : {
          config: doc.config as Record<string, unknown>,
          authorization: doc.authorization as StoredAuthorization | undefined,
        };
  }

  /** Every transform's id, sorted. */
  async ids(): Promise<string[]> {
    if (!this.s.indices.get(TRANSFORM_INTERNAL_INDEX)) return [];
    const r = await this.client.call(
      'POST',
      '/:index/_search',
      { index: TRANSFORM_INTERNAL_INDEX },
      {
        body: {
          size: 10_000,
          query: { term: { doc_type: 'data_frame_transform_config' } },
          _source: ['config.id'],
        },
      },
    );
    if (r.status !== 200) throw fail('search', r);
    const hits = (r.body.hits?.hits ?? []) as { _source: { config: { id: string } } }[];
    return hits.map((h) => h._source.config.id).sort();
  }

  async getState(id: string): Promise<Record<string, unknown> | undefined> {
    return this.get(stateId(id));
  }

  async putState(id: string, doc: Record<string, unknown>): Promise<void> {
    await this.put(
      stateId(id),
      { doc_type: 'data_frame_transform_state_and_stats', id, ...doc },
      false,
      false,
    );
  }

  async putCheckpoint(id: string, checkpoint: number, doc: Record<string, unknown>): Promise<void> {
    await this.put(checkpointId(id, checkpoint), {
      doc_type: 'data_frame_transform_checkpoint',
      id,
      checkpoint,
      ...doc,
    });
  }

  async getCheckpoint(id: string, checkpoint: number): Promise<Record<string, unknown> | undefined> {
    return this.get(checkpointId(id, checkpoint));
  }

  /** Deletes a transform's configuration, state and checkpoints; false when there was none. */
  async deleteAll(id: string): Promise<boolean> {
    if (!this.s.indices.get(TRANSFORM_INTERNAL_INDEX)) return false;
    await this.refresh();
    const r = await this.client.call(
      'POST',
      '/:index/_delete_by_query',
      { index: TRANSFORM_INTERNAL_INDEX },
      { query: { refresh: 'true' }, body: { query: { term: { id } } } },
    );
    if (r.status !== 200) throw fail('delete', r);
    const c = await this.client.call(
      'DELETE',
      '/:index/_doc/:id',
      {
        index: TRANSFORM_INTERNAL_INDEX,
        id: configId(id),
      },
      { query: { refresh: 'true' } },
    );
    return c.status === 200 || Number(r.body.deleted ?? 0) > 0;
  }

  /** Drops the state and checkpoints (`_reset`); the configuration stays. */
  async resetState(id: string): Promise<void> {
    if (!this.s.indices.get(TRANSFORM_INTERNAL_INDEX)) return;
    await this.refresh();
    const r = await this.client.call(
      'POST',
      '/:index/_delete_by_query',
      { index: TRANSFORM_INTERNAL_INDEX },
      { query: { refresh: 'true' }, body: { query: { term: { id } } } },
    );
    if (r.status !== 200) throw fail('reset', r);
  }

  /** Makes the state documents (written without a refresh) visible to a delete by query. */
  private async refresh(): Promise<void> {
    await this.client.call('POST', '/:index/_refresh', { index: TRANSFORM_INTERNAL_INDEX });
  }

  /** An audit message (TransformAuditor); never fails the caller. */
  async audit(transformId: string, level: 'info' | 'warning' | 'error', message: string): Promise<void> {
    try {
      await this.ensure();
      await this.client.call(
        'POST',
        '/:index/_doc',
        { index: TRANSFORM_NOTIFICATIONS_INDEX },
        {
          body: {
            transform_id: transformId,
            level,
            message,
            timestamp: Date.now(),
            node_name: this.s.node.name,
          },
        },
      );
    } catch (err) {
      this.s.logger.warn({ err, transform: transformId }, 'transform audit message not stored');
    }
  }
}
