/**
 * `PUT /{index}/_block/{block}` and `DELETE /{index}/_block/{block}` (the add and remove index
 * block APIs): set or clear `index.blocks.<block>` on every target, through the same settings
 * update as `PUT /{index}/_settings`.
 */
import { actionRequestValidation, BLOCK_NAMES, illegalArgument } from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { indicesOptionsFrom, SEARCH_INDICES_OPTIONS } from '../state/resolve-indices.ts';

/** IndexMetadata.APIBlock.fromName, and AddIndexBlockRequest.validate's refusal of the disk block. */
function blockName(name: string | undefined): string {
  const block = (BLOCK_NAMES as readonly string[]).find((b) => b === name);
  if (block === undefined) throw illegalArgument(`No block found with name ${name}`);
  if (block === 'read_only_allow_delete')
    throw actionRequestValidation(['read_only_allow_delete block is for internal use only']);
  return block;
}

/** DestructiveOperations.failDestructive, as `DELETE /{index}` applies it. */
function refuseWildcards(req: RestRequest, s: NodeServices): void {
  const expr = req.params.index!;
  if (s.clusterSettings.effective()['action.destructive_requires_name'] === 'false') return;
  if (expr === '_all' || expr.split(',').some((p) => p.includes('*')))
    throw illegalArgument('Wildcard expressions or all indices are not allowed');
}

async function changeBlock(req: RestRequest, s: NodeServices, add: boolean): Promise<RestResponse> {
  const block = blockName(req.params.block);
  refuseWildcards(req, s);
  const targets = s.indices.resolve(
    req.params.index,
    indicesOptionsFrom(req.query, { ...SEARCH_INDICES_OPTIONS, allowNoIndices: false }),
  );
  const warnings = await s.indices.updateSettings(targets, {
    [`index.blocks.${block}`]: add ? 'true' : null,
  });
  req.warnings.push(...warnings);
  const indices = targets.map((m) =>
    add ? { name: m.name, blocked: true } : { name: m.name, unblocked: true },
  );
  return {
    status: 200,
    body: add ? { acknowledged: true, shards_acknowledged: true, indices } : { acknowledged: true, indices },
  };
}

export function indexBlockRoutes(): Route<NodeServices>[] {
  return [
    {
      method: 'PUT',
      path: '/:index/_block/:block',
      action: 'indices:admin/block/add',
      handler: (req, s) => changeBlock(req, s, true),
    },
    {
      method: 'DELETE',
      path: '/:index/_block/:block',
      action: 'indices:admin/block/remove',
      handler: (req, s) => changeBlock(req, s, false),
    },
  ];
}
