/**
 * Field aliases (FieldAliasMapper.validate): an alias names an existing concrete field, not
 * itself, another alias or an object; checked once the whole mapping is known.
 */
import { mapperParsing } from '@shoal/protocol';
import type { FieldNode, MapperNode, ObjectNode, RootNode } from './nodes.ts';

function collect(o: ObjectNode, out: Map<string, MapperNode>): void {
  for (const child of o.children.values()) {
    out.set(child.path, child);
    if (child.kind === 'field') for (const sub of child.fields.values()) out.set(sub.path, sub);
    else collect(child, out);
  }
}

export function checkAliases(root: RootNode): void {
  let all: Map<string, MapperNode> | undefined;
  const visit = (o: ObjectNode) => {
    for (const child of o.children.values()) {
      if (child.kind !== 'field') {
        visit(child);
        continue;
      }
      if (child.type !== 'alias') continue;
      if (!all) {
        all = new Map();
        collect(root.object, all);
      }
      checkAlias(child, all);
    }
  };
  visit(root.object);
}

function checkAlias(alias: FieldNode, all: Map<string, MapperNode>): void {
  const path = alias.params.path as string;
  const prefix = `Invalid [path] value [${path}] for field alias [${alias.path}]`;
  if (path === alias.path) throw mapperParsing(`${prefix}: an alias cannot refer to itself.`);
  const target = all.get(path);
  if (target === undefined || target.kind !== 'field') {
    throw mapperParsing(`${prefix}: an alias must refer to an existing field in the mappings.`);
  }
  if (target.type === 'alias') throw mapperParsing(`${prefix}: an alias cannot refer to another alias.`);
}
