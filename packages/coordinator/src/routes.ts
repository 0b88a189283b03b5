import type { Route } from './http/rest-types.ts';
import { aliasRoutes } from './rest/aliases.ts';
import { analyzeRoutes } from './rest/analyze.ts';
import { bulkRoutes } from './rest/bulk.ts';
import { bulkByScrollRoutes } from './rest/bulk-by-scroll.ts';
import { cacheClearRoutes } from './rest/cache-clear.ts';
import { catRoutes } from './rest/cat.ts';
import { catAliasRoutes } from './rest/cat-aliases.ts';
import { catCountRoutes } from './rest/cat-count.ts';
import { catNodesRoutes } from './rest/cat-nodes.ts';
import { catTemplateRoutes } from './rest/cat-templates.ts';
import { catTransformRoutes } from './rest/cat-transforms.ts';
import { clusterRoutes } from './rest/cluster.ts';
import { clusterStateRoutes } from './rest/cluster-state.ts';
import { dataStreamRoutes } from './rest/data-streams.ts';
import { documentRoutes } from './rest/documents.ts';
import { extInfoRoutes } from './rest/ext-info.ts';
import { faultInjectionRoutes } from './rest/fault-injection.ts';
import { fieldCapsRoutes } from './rest/field-caps.ts';
import { flushMergeRoutes } from './rest/flush-merge.ts';
import { indexBlockRoutes } from './rest/index-blocks.ts';
import { indexStatsRoutes } from './rest/index-stats.ts';
import { indexTemplateRoutes } from './rest/index-templates.ts';
import { indexRoutes } from './rest/indices.ts';
import { licenseRoutes } from './rest/license.ts';
import { memoryReportRoutes } from './rest/memory-report.ts';
import { migrationRoutes } from './rest/migration.ts';
import { msearchRoutes } from './rest/msearch.ts';
import { nodesInfoRoutes } from './rest/nodes-info.ts';
import { openCloseRoutes } from './rest/open-close.ts';
import { pitRoutes } from './rest/pit.ts';
import { rolloverRoutes } from './rest/rollover.ts';
import { scriptRoutes } from './rest/scripts.ts';
import { searchRoutes } from './rest/search.ts';
import { searchTemplateRoutes } from './rest/search-template.ts';
import { taskRoutes } from './rest/tasks.ts';
import { transformRoutes } from './rest/transforms.ts';
import { validateQueryRoutes } from './rest/validate-query.ts';
import { votingExclusionRoutes } from './rest/voting-exclusions.ts';
import type { NodeServices } from './services.ts';

/** Every REST route of a node, each with the action name security will authorize. */
export function allRoutes(): Route<NodeServices>[] {
  return [
    ...clusterRoutes(),
    ...licenseRoutes(),
    ...extInfoRoutes(),
    ...migrationRoutes(),
    ...scriptRoutes(),
    ...clusterStateRoutes(),
    ...votingExclusionRoutes(),
    ...nodesInfoRoutes(),
    ...catRoutes(),
    ...catNodesRoutes(),
    ...searchRoutes(),
    ...searchTemplateRoutes(),
    ...fieldCapsRoutes(),
    ...analyzeRoutes(),
    ...validateQueryRoutes(),
    ...msearchRoutes(),
    ...pitRoutes(),
    ...bulkRoutes(),
    ...bulkByScrollRoutes(),
    ...taskRoutes(),
    ...transformRoutes(),
    ...catTransformRoutes(),
    ...documentRoutes(),
    ...aliasRoutes(),
    ...flushMergeRoutes(),
    ...cacheClearRoutes(),
    ...catCountRoutes(),
    ...catAliasRoutes(),
    ...catTemplateRoutes(),
    ...indexStatsRoutes(),
    ...indexTemplateRoutes(),
    ...rolloverRoutes(),
    ...dataStreamRoutes(),
    ...indexRoutes(),
    ...indexBlockRoutes(),
    ...openCloseRoutes(),
    ...faultInjectionRoutes(),
    ...memoryReportRoutes(),
  ];
}
