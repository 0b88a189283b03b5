import type { Route } from './http/rest-types.ts';
import { aliasRoutes } from './rest/aliases.ts';
import { bulkRoutes } from './rest/bulk.ts';
import { catRoutes } from './rest/cat.ts';
import { clusterRoutes } from './rest/cluster.ts';
import { documentRoutes } from './rest/documents.ts';
import { extInfoRoutes } from './rest/ext-info.ts';
import { faultInjectionRoutes } from './rest/fault-injection.ts';
import { flushMergeRoutes } from './rest/flush-merge.ts';
import { indexStatsRoutes } from './rest/index-stats.ts';
import { indexRoutes } from './rest/indices.ts';
import { licenseRoutes } from './rest/license.ts';
import { memoryReportRoutes } from './rest/memory-report.ts';
import { migrationRoutes } from './rest/migration.ts';
import { pitRoutes } from './rest/pit.ts';
import { scriptRoutes } from './rest/scripts.ts';
import { searchRoutes } from './rest/search.ts';
import type { NodeServices } from './services.ts';

/** Every REST route of a node, each with the action name security will authorize. */
export function allRoutes(): Route<NodeServices>[] {
  return [
    ...clusterRoutes(),
    ...licenseRoutes(),
    ...extInfoRoutes(),
    ...migrationRoutes(),
    ...scriptRoutes(),
    ...catRoutes(),
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
