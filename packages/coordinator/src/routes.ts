import type { Route } from './http/rest-types.ts';
import { aliasRoutes } from './rest/aliases.ts';
import { bulkRoutes } from './rest/bulk.ts';
import { catRoutes } from './rest/cat.ts';
import { catNodesRoutes } from './rest/cat-nodes.ts';
import { clusterRoutes } from './rest/cluster.ts';
import { clusterStateRoutes } from './rest/cluster-state.ts';
import { documentRoutes } from './rest/documents.ts';
import { faultInjectionRoutes } from './rest/fault-injection.ts';
import { flushMergeRoutes } from './rest/flush-merge.ts';
import { indexStatsRoutes } from './rest/index-stats.ts';
import { indexRoutes } from './rest/indices.ts';
import { memoryReportRoutes } from './rest/memory-report.ts';
import { nodesInfoRoutes } from './rest/nodes-info.ts';
import { pitRoutes } from './rest/pit.ts';
import { searchRoutes } from './rest/search.ts';
import { votingExclusionRoutes } from './rest/voting-exclusions.ts';
import type { NodeServices } from './services.ts';

/** Every REST route of a node, each with the action name security will authorize. */
export function allRoutes(): Route<NodeServices>[] {
  return [
    ...clusterRoutes(),
    ...clusterStateRoutes(),
    ...votingExclusionRoutes(),
    ...nodesInfoRoutes(),
    ...catRoutes(),
    ...catNodesRoutes(),
    ...searchRoutes(),
    ...pitRoutes(),
    ...bulkRoutes(),
    ...documentRoutes(),
    ...aliasRoutes(),
    ...flushMergeRoutes(),
    ...indexStatsRoutes(),
    ...indexRoutes(),
    ...faultInjectionRoutes(),
    ...memoryReportRoutes(),
  ];
}
