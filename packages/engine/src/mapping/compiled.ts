/**
 * The mapping compiled for document parsing and lookups, built once per mapping version: a tree
 * of objects whose children are found by leaf name, each leaf carrying what parsing a value needs
 * (analyzer, coercion, format, null_value, multi-fields), plus flat path tables for `field()`.
 * Leaves also hold per-document scratch (the IndexableField being filled), which is safe
 * because document parsing is synchronous and single-threaded.
 */

import { getAnalyzer } from '../analysis/index.ts';
import type { Analyzer, IndexableField, ResolvedField, VectorFieldSpec } from '../contract.ts';
import { DEFAULT_DATE_FORMAT, DEFAULT_DATE_NANOS_FORMAT } from '../dates/index.ts';
import { vectorSpec } from './dense-vector.ts';
import { childPath, type Dynamic, type FieldNode, type ObjectNode } from './nodes.ts';
import type { BaseLeafType, LeafType } from './params.ts';
import { type ShingleSpec, searchAsYouTypeFields } from './shingles.ts';
import { isRangeType, isSpecialType, storedTypeOf } from './special-types.ts';

/** ResolvedField plus what the query side may need beyond the contract. */
export interface MappedField extends ResolvedField {
  /** `lowercase` when the keyword has that normalizer. */
  normalizer?: string;
  nullValue?: unknown;
  positionIncrementGap?: number;
  store?: boolean;
  /** Whether this is a multi-field of another field. */
  multiField?: boolean;
}

export interface IndexSettingsView {
  /** index.mapping.coerce (default true). */
  coerce: boolean;
  /** index.mapping.ignore_malformed (default false). */
  ignoreMalformed: boolean;
}

export class CField {
  readonly kind = 'field';
  readonly path: string;
  readonly name: string;
  /** The declared type. */
  readonly type: LeafType;
  /** The type the index keeps values as. */
  readonly stored: BaseLeafType;
  readonly resolved: MappedField;
  /** Whether values produce anything to index (index or doc_values). */
  readonly emits: boolean;
  readonly analyzer: Analyzer | undefined;
  readonly gap: number;
  readonly ignoreAbove: number;
  readonly lowercase: boolean;
  readonly nullValue: unknown;
  readonly coerce: boolean;
  readonly ignoreMalformed: boolean;
  readonly ignoreZ: boolean;
  readonly format: string;
  readonly multi: CField[];
  readonly copyTo: readonly string[];
  /** constant_keyword: the mapping's `value`, once set. */
  readonly constantValue: string | undefined;
  /** flattened: how deep an object value may go. */
  readonly depthLimit: number;
  /** alias: the full path of the field it names. */
  readonly aliasPath: string | undefined;
  /** token_count: enable_position_increments. */
  readonly positionIncrements: boolean;
  /** dense_vector: its dims, element type and similarity. */
  readonly vector: VectorFieldSpec | undefined;
  /** rank_feature / rank_features: positive_score_impact. */
  readonly positiveScoreImpact: boolean;
  /** A search_as_you_type sub-field: the shingles it indexes (shingles.ts). */
  readonly shingles: ShingleSpec | undefined;
  // Per-document scratch.
  seq = -1;
  slot: IndexableField | undefined = undefined;
  lastPos = -1;
  values = 0;

  constructor(node: FieldNode, settings: IndexSettingsView, multiField: boolean, shingles?: ShingleSpec) {
    const p = node.params;
    this.path = node.path;
    this.name = node.name;
    this.type = node.type;
    this.stored = storedTypeOf(node.type);
    // A vector's `index` means Elasticsearch's HNSW graph, not terms: its one term is doc values only.
    const index =
      node.type === 'binary' || node.type === 'dense_vector'
        ? false
        : ((p.index as boolean | undefined) ?? true);
    const docValues =
      this.stored === 'text' || isRangeType(node.type)
        ? false
        : node.type === 'dense_vector' || ((p.doc_values as boolean | undefined) ?? node.type !== 'binary');
    // A binary field keeps its values whatever doc_values says, so that `exists` finds them
    // (Elasticsearch records such fields in _field_names). An alias keeps nothing of its own.
    this.emits = node.type === 'alias' ? false : index || docValues || node.type === 'binary';
    this.analyzer =
      this.stored === 'text' || node.type === 'token_count'
        ? getAnalyzer((p.analyzer as string | undefined) ?? 'default')
        : undefined;
    this.constantValue = p.value as string | undefined;
    this.depthLimit = (p.depth_limit as number | undefined) ?? 20;
    this.aliasPath = p.path as string | undefined;
    this.positionIncrements = (p.enable_position_increments as boolean | undefined) ?? true;
    this.positiveScoreImpact = (p.positive_score_impact as boolean | undefined) ?? true;
    this.gap = (p.position_increment_gap as number | undefined) ?? 100;
    this.ignoreAbove = (p.ignore_above as number | undefined) ?? Number.POSITIVE_INFINITY;
    this.lowercase = p.normalizer === 'lowercase';
    this.nullValue = p.null_value ?? undefined;
    this.coerce = (p.coerce as boolean | undefined) ?? settings.coerce;
    this.ignoreMalformed = (p.ignore_malformed as boolean | undefined) ?? settings.ignoreMalformed;
    this.ignoreZ = (p.ignore_z_value as boolean | undefined) ?? true;
    this.format =
      (p.format as string | undefined) ??
      (node.type === 'date_nanos' ? DEFAULT_DATE_NANOS_FORMAT : DEFAULT_DATE_FORMAT);
    this.copyTo = node.copyTo;
    this.shingles = shingles;
    this.multi = [...node.fields.values()].map((f) => new CField(f, settings, true));
    if (node.type === 'search_as_you_type' && shingles === undefined) {
      for (const [sub, spec] of searchAsYouTypeFields(node))
        this.multi.push(new CField(sub, settings, true, spec));
    }
    const resolved: MappedField = { path: node.path, type: this.stored, index, docValues };
    if (isSpecialType(node.type)) resolved.mappedType = node.type;
    if (isRangeType(node.type)) resolved.rangeType = node.type;
    if (node.type === 'dense_vector') resolved.vector = vectorSpec(p);
    this.vector = resolved.vector;
    if (node.type === 'rank_feature' || node.type === 'rank_features')
      resolved.positiveScoreImpact = this.positiveScoreImpact;
    if (this.stored === 'text') {
      resolved.analyzer = (p.analyzer as string | undefined) ?? 'default';
      resolved.searchAnalyzer = (p.search_analyzer as string | undefined) ?? resolved.analyzer;
      resolved.positionIncrementGap = this.gap;
    }
    if (node.type === 'date' || node.type === 'date_nanos' || node.type === 'date_range')
      resolved.format = this.format;
    if (p.ignore_above !== undefined) resolved.ignoreAbove = p.ignore_above as number;
    if (p.scaling_factor !== undefined) resolved.scalingFactor = p.scaling_factor as number;
    if (p.normalizer !== undefined) resolved.normalizer = p.normalizer as string;
    if (this.nullValue !== undefined) resolved.nullValue = this.nullValue;
    if (p.store === true) resolved.store = true;
    if (multiField) resolved.multiField = true;
    this.resolved = resolved;
  }
}

export class CObject {
  readonly kind = 'object';
  readonly children = new Map<string, CField | CObject>();
  readonly dynamic: Dynamic;
  readonly enabled: boolean;
  readonly nested: boolean;

  constructor(
    readonly node: ObjectNode,
    readonly parent: CObject | undefined,
    inheritedDynamic: Dynamic,
  ) {
    this.dynamic = node.dynamic ?? inheritedDynamic;
    this.enabled = node.enabled ?? true;
    this.nested = node.kind === 'nested';
  }

  get path(): string {
    return this.node.path;
  }

  get name(): string {
    return this.node.name;
  }
}

export interface CompiledTables {
  root: CObject;
  fields: Map<string, CField>;
  objects: Map<string, CObject>;
}

function addField(f: CField, tables: CompiledTables): void {
  tables.fields.set(f.path, f);
  for (const m of f.multi) addField(m, tables);
}

export function compileObject(
  node: ObjectNode,
  parent: CObject | undefined,
  tables: CompiledTables,
  settings: IndexSettingsView,
): CObject {
  const obj = new CObject(node, parent, parent?.dynamic ?? 'true');
  for (const [name, child] of node.children) {
    if (child.kind === 'field') {
      const f = new CField(child, settings, false);
      obj.children.set(name, f);
      addField(f, tables);
    } else {
      const c = compileObject(child, obj, tables, settings);
      obj.children.set(name, c);
      tables.objects.set(childPath(node.path, name), c);
    }
  }
  return obj;
}

export function compileRoot(root: ObjectNode, settings: IndexSettingsView): CompiledTables {
  const tables: CompiledTables = {
    root: undefined as unknown as CObject,
    fields: new Map(),
    objects: new Map(),
  };
  tables.root = compileObject(root, undefined, tables, settings);
  return tables;
}
