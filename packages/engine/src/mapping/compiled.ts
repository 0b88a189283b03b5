/**
 * The mapping compiled for document parsing and lookups, built once per mapping version: a tree
 * of objects whose children are found by leaf name, each leaf carrying what parsing a value needs
 * (analyzer, coercion, format, null_value, multi-fields), plus flat path tables for `field()`.
 * Leaves also hold per-document scratch (the IndexableField being filled), which is safe
 * because document parsing is synchronous and single-threaded.
 */

import { getAnalyzer } from '../analysis/index.ts';
import type { Analyzer, IndexableField, ResolvedField } from '../contract.ts';
import { DEFAULT_DATE_FORMAT, DEFAULT_DATE_NANOS_FORMAT } from '../dates/index.ts';
import { childPath, type Dynamic, type FieldNode, type ObjectNode } from './nodes.ts';
import type { LeafType } from './params.ts';

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
  readonly type: LeafType;
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
  // Per-document scratch.
  seq = -1;
  slot: IndexableField | undefined = undefined;
  lastPos = -1;
  values = 0;

  constructor(node: FieldNode, settings: IndexSettingsView, multiField: boolean) {
    const p = node.params;
    this.path = node.path;
    this.name = node.name;
    this.type = node.type;
    const index = (p.index as boolean | undefined) ?? true;
    const docValues = node.type === 'text' ? false : ((p.doc_values as boolean | undefined) ?? true);
    this.emits = index || docValues;
    this.analyzer =
      node.type === 'text' ? getAnalyzer((p.analyzer as string | undefined) ?? 'default') : undefined;
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
    this.multi = [...node.fields.values()].map((f) => new CField(f, settings, true));
    const resolved: MappedField = { path: node.path, type: node.type, index, docValues };
    if (node.type === 'text') {
      resolved.analyzer = (p.analyzer as string | undefined) ?? 'default';
      resolved.searchAnalyzer = (p.search_analyzer as string | undefined) ?? resolved.analyzer;
      resolved.positionIncrementGap = this.gap;
    }
    if (node.type === 'date' || node.type === 'date_nanos') resolved.format = this.format;
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
