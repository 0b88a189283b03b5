/**
 * What security needs from the node it runs in, declared here so that the node depends on
 * security and never the other way round. The coordinator implements these with its own engine
 * (the system index is a real Shoal index) and its cluster settings.
 */

/** A security document as stored: plain JSON. */
export type SecurityDoc = Record<string, unknown>;

/**
 * The security system index (`.security-7`): documents by id, each with a `type` field
 * (`user`, `role`, `reserved-user`, …) as Elasticsearch lays out its security index.
 * Writes are visible to `listByType` when they return (they refresh).
 */
export interface SystemIndexStore {
  /** Creates the index if it does not exist yet. */
  ensure(): Promise<void>;
  get(id: string): Promise<SecurityDoc | undefined>;
  /**
   * Stores a document; with `create`, fails (returns `exists`) when the id is taken instead of
   * replacing it.
   */
  put(id: string, doc: SecurityDoc, opts?: { create?: boolean }): Promise<'created' | 'updated' | 'exists'>;
  /** Whether a document was there to delete. */
  delete(id: string): Promise<boolean>;
  /** Every document of one type, with its id. */
  listByType(type: string): Promise<{ id: string; doc: SecurityDoc }[]>;
  /**
   * A search of the index on the node's query engine (the `_query` APIs): `body` is a search
   * body (`query`, `from`, `size`, `sort`, `search_after`, `aggs`) over the stored fields. A
   * request the engine refuses (a bad query, a sort on a field it cannot sort by) throws the
   * engine's own error.
   */
  search(body: Record<string, unknown>, opts?: { typedKeys?: boolean }): Promise<SystemIndexHits>;
  /** The index's own settings, flat (`index.number_of_replicas`: `"0"`). */
  getSettings(): Promise<Record<string, string>>;
  /** Changes index settings (flat keys; `null` resets one). */
  updateSettings(settings: Record<string, string | null>): Promise<void>;
}

export interface SystemIndexHits {
  /** How many documents matched (counted exactly). */
  total: number;
  hits: { id: string; doc: SecurityDoc; sort?: unknown[] }[];
  aggregations?: Record<string, unknown>;
}

/** A document with its place in the index's history (for `if_seq_no`/`if_primary_term`). */
export interface VersionedDoc {
  id: string;
  doc: SecurityDoc;
  seqNo: number;
  primaryTerm: number;
}

/**
 * A hidden system index of its own, searched with the node's query language: the user
 * profiles' `.security-profile-8`. Writes are visible to `search` when they return.
 */
export interface VersionedIndexStore {
  get(id: string): Promise<VersionedDoc | undefined>;
  /**
   * Stores a document; with `ifSeqNo`/`ifPrimaryTerm`, only over that version of it (else the
   * node's 409 version conflict is thrown).
   */
  put(
    id: string,
    doc: SecurityDoc,
    opts?: { ifSeqNo?: number; ifPrimaryTerm?: number },
  ): Promise<VersionedDoc>;
  /** A search request body (`query`, `size`, `sort`); an index not created yet has no hits. */
  search(body: Record<string, unknown>): Promise<{
    total: { value: number; relation: string };
    hits: VersionedDoc[];
  }>;
}

/** The node's index names, for authorizing index expressions. */
export interface IndexNamespace {
  /**
   * The names (indices and aliases) that an expression's wildcard parts reach, as the node
   * itself would expand them for this request (its `expand_wildcards`, hidden indices left out
   * unless asked for), and the names it gives literally.
   */
  expand(expression: string, query: Record<string, string>): { literal: string[]; matched: string[] };
  /** Whether a concrete index or alias of this name exists. */
  exists(name: string): boolean;
}

/** The node as `_clear_cache` responses name it. */
export interface NodeIdentity {
  id: string;
  name: string;
  clusterName: string;
}

export interface SecurityHost {
  store: SystemIndexStore;
  /** The user profiles' index (none: the profile APIs answer 501). */
  profiles?: VersionedIndexStore;
  indices: IndexNamespace;
  node: NodeIdentity;
  /** Where the file realm's `users` and `users_roles` files are (none: no file realm). */
  fileRealmDir?: string;
  /** Where relative paths of security settings (keys, certificates) are read from. */
  configDir?: string;
  /** The node's settings (`xpack.security.*`), flat keys to strings. */
  settings: Record<string, string>;
  /**
   * Secure settings (Elasticsearch's keystore: an OIDC realm's `rp.client_secret`), flat keys
   * to strings; never among `settings`.
   */
  secureSettings?: Record<string, string>;
  /** Milliseconds since the epoch. */
  now(): number;
  /** Says something once to the operator (the generated `elastic` password). */
  announce(message: string): void;
  log: { info(msg: string): void; warn(msg: string): void };
}
