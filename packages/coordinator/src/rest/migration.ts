/**
 * `GET /_migration/deprecations` and `GET /{index}/_migration/deprecations` (the deprecation
 * info API): the deprecated settings in use in the cluster settings, the node's own settings
 * and each index's settings, as issues in the shape of Elasticsearch's DeprecationIssue
 * (NodeDeprecationChecks' texts, changes78.md §5.2). Also under the deprecated
 * `/_ext/migration/deprecations` paths.
 */
import { deprecatedKeysIn, type FlatSettings } from '@shoal/protocol';
import { withReplaced } from '../http/deprecated-route.ts';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { indicesOptionsFrom, SEARCH_INDICES_OPTIONS } from '../state/resolve-indices.ts';

const BREAKING_CHANGES =
  'https://www.elastic.co/guide/en/elasticsearch/reference/7.8/breaking-changes-7.8.html';

function issueUrl(key: string): string {
  if (key === 'node.local_storage') return `${BREAKING_CHANGES}#deprecate-node-local-storage`;
  if (/^ext\.[a-z_]+\.enabled$/.test(key))
    return `${BREAKING_CHANGES}#deprecate-basic-license-feature-enabled`;
  return BREAKING_CHANGES;
}

function valueText(v: unknown): string {
  return Array.isArray(v) ? v.join(',') : String(v);
}

function issues(settings: Readonly<Record<string, unknown>>): Record<string, unknown>[] {
  return deprecatedKeysIn(settings).map((key) => ({
    level: 'critical',
    message: `setting [${key}] is deprecated and will be removed in the next major version`,
    url: issueUrl(key),
    details: `the setting [${key}] is currently set to [${valueText(settings[key])}], remove this setting`,
    resolve_during_rolling_upgrade: false,
  }));
}

function deprecations(req: RestRequest, s: NodeServices): RestResponse {
  const { persistent, transient } = s.clusterSettings.view();
  const cluster: FlatSettings = { ...persistent, ...transient };
  const targets =
    req.params.index === undefined
      ? [...s.indices.all().values()]
      : s.indices.resolve(req.params.index, indicesOptionsFrom(req.query, SEARCH_INDICES_OPTIONS));
  const indexSettings: Record<string, unknown> = {};
  for (const meta of targets) {
    const found = issues(meta.settings);
    if (found.length > 0) indexSettings[meta.name] = found;
  }
  return {
    status: 200,
    body: {
      cluster_settings: issues(cluster),
      node_settings: issues(s.nodeSettings),
      index_settings: indexSettings,
      ml_settings: [],
    },
  };
}

export function migrationRoutes(): Route<NodeServices>[] {
  const action = 'cluster:admin/ext/deprecations/info';
  return [
    ...withReplaced(
      { method: 'GET', path: '/_migration/deprecations', action, handler: deprecations },
      '/_ext/migration/deprecations',
    ),
    ...withReplaced(
      { method: 'GET', path: '/:index/_migration/deprecations', action, handler: deprecations },
      '/:index/_ext/migration/deprecations',
    ),
  ];
}
