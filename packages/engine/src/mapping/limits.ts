/**
 * Mapping size limits (index.mapping.total_fields.limit, .depth.limit, .nested_fields.limit,
 * .field_name_length.limit), checked in MappingLookup.checkLimits's order. Fields counted: every
 * leaf, multi-field and object below the root, as Elasticsearch does.
 */
import { illegalArgument } from '@shoal/protocol';
import type { FieldNode, ObjectNode, RootNode } from './nodes.ts';

export interface MappingLimits {
  totalFields: number;
  depth: number;
  nestedFields: number;
  /** The longest leaf name of a field or object (no limit by default). */
  fieldNameLength: number;
  /** Nested objects one document may hold, across all nested fields. */
  nestedObjects: number;
}

export const DEFAULT_LIMITS: MappingLimits = {
  totalFields: 1000,
  depth: 20,
  nestedFields: 50,
  fieldNameLength: Number.POSITIVE_INFINITY,
  nestedObjects: 10000,
};

export function countLeaf(f: FieldNode): number {
  let n = 1;
  for (const sub of f.fields.values()) n += countLeaf(sub);
  return n;
}

export function countFields(o: ObjectNode): number {
  let n = 0;
  for (const child of o.children.values())
    n += child.kind === 'field' ? countLeaf(child) : 1 + countFields(child);
  return n;
}

/** MappingLookup.checkObjectDepthLimit: the root is level 1, so an object at the root is at 2. */
export function objectDepth(path: string): number {
  let depth = 2;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 46) depth++;
  return depth;
}

function walkObjects(o: ObjectNode, visit: (o: ObjectNode) => void): void {
  for (const child of o.children.values()) {
    if (child.kind !== 'field') {
      visit(child);
      walkObjects(child, visit);
    }
  }
}

/** Throws illegal_argument_exception when the mapping is over a limit. */
export function checkLimits(root: RootNode, limits: MappingLimits): void {
  if (countFields(root.object) > limits.totalFields) {
    throw illegalArgument(`Limit of total fields [${limits.totalFields}] has been exceeded`);
  }
  let nested = 0;
  walkObjects(root.object, (o) => {
    if (objectDepth(o.path) > limits.depth) {
      throw illegalArgument(
        `Limit of mapping depth [${limits.depth}] has been exceeded due to object field [${o.path}]`,
      );
    }
    if (o.kind === 'nested') nested++;
  });
  if (Number.isFinite(limits.fieldNameLength)) checkNameLengths(root.object, limits.fieldNameLength);
  if (nested > limits.nestedFields) {
    throw illegalArgument(`Limit of nested fields [${limits.nestedFields}] has been exceeded`);
  }
}

/** MappingLookup.checkFieldNameLengthLimit: every object and field (multi-fields too) by leaf name. */
function checkNameLengths(o: ObjectNode, limit: number): void {
  const check = (name: string) => {
    if (name.length > limit)
      throw illegalArgument(`Field name [${name}] is longer than the limit of [${limit}] characters`);
  };
  const leaf = (f: FieldNode) => {
    check(f.name);
    for (const sub of f.fields.values()) leaf(sub);
  };
  for (const child of o.children.values()) {
    if (child.kind === 'field') leaf(child);
    else {
      check(child.name);
      checkNameLengths(child, limit);
    }
  }
}
