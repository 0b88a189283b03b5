/**
 * Mapping size limits (index.mapping.total_fields.limit, .depth.limit, .nested_fields.limit).
 * Fields counted: every leaf, multi-field and object below the root, as Elasticsearch does.
 */
import { illegalArgument } from '@shoal/protocol';
import type { FieldNode, ObjectNode, RootNode } from './nodes.ts';

export interface MappingLimits {
  totalFields: number;
  depth: number;
  nestedFields: number;
}

export const DEFAULT_LIMITS: MappingLimits = { totalFields: 1000, depth: 20, nestedFields: 50 };

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

export function objectDepth(path: string): number {
  let depth = 1;
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
  if (nested > limits.nestedFields) {
    throw illegalArgument(`Limit of nested fields [${limits.nestedFields}] has been exceeded`);
  }
}
