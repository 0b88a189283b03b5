/**
 * Security in the node: starts it on the node's own engine (the system index through the
 * node's handlers), and gives the HTTP app its guard and its `/_security` routes. With
 * `xpack.security.enabled: false` there is neither: every request is served as before.
 */
import { join } from 'node:path';
import {
  type GuardResult,
  SECURITY_ENABLED_SETTING,
  SECURITY_INDEX,
  Security,
  type SecurityRoute,
  securityEnabled,
} from '@shoal/security';
import type { Logger } from 'pino';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { NodeIndexNamespace } from './index-namespace.ts';
import { InternalClient } from './internal-client.ts';
import { SystemIndexDocStore } from './system-index-store.ts';

export interface NodeSecurity {
  routes: Route<NodeServices>[];
  /**
   * Authenticates and authorizes a request before its handler runs (throws the 401 or 403);
   * sets `req.authentication`, and narrows `req.params.index` to the authorized names.
   */
  guard(req: RestRequest, route: Route<NodeServices>, uri: string): Promise<void> | undefined;
  /** After a guarded request's handler answered (security remembers who owns which scroll or PIT). */
  answered(req: RestRequest, route: Route<NodeServices>, res: RestResponse): void;
}

function apply(req: RestRequest, r: GuardResult): void {
  req.authentication = r.authentication;
  if (r.index !== undefined) req.params = { ...req.params, index: r.index };
}

function mountRoute(r: SecurityRoute): Route<NodeServices> {
  return {
    method: r.method,
    path: r.path,
    action: r.action,
    handler: (req) => r.handler(req, req.authentication!),
  };
}

/** The file realm's files are under the node's data path, in this folder. */
export const FILE_REALM_FOLDER = 'security';

export async function startSecurity(
  services: NodeServices,
  dataPath: string,
  nodeRoutes: Route<NodeServices>[],
  settings: Readonly<Record<string, string>>,
  logger: Logger,
): Promise<NodeSecurity | undefined> {
  // As Elasticsearch's Docker image does, a node setting may also come as an environment
  // variable of the same name (`xpack.security.enabled=false`).
  const fromEnv = process.env[SECURITY_ENABLED_SETTING];
  if (fromEnv !== undefined) settings = { ...settings, [SECURITY_ENABLED_SETTING]: fromEnv };
  if (!securityEnabled(settings)) {
    logger.warn(
      'security is disabled ([xpack.security.enabled] is [false]): every request is served without credentials',
    );
    return undefined;
  }
  const client = new InternalClient(nodeRoutes, services);
  const security = await Security.start(
    {
      store: new SystemIndexDocStore(
        client,
        () => services.indices.get(SECURITY_INDEX) !== undefined,
        () => services.indices.primariesActive(SECURITY_INDEX),
      ),
      indices: new NodeIndexNamespace(services.indices),
      fileRealmDir: join(dataPath, FILE_REALM_FOLDER),
      node: { id: services.node.id, name: services.node.name, clusterName: services.node.clusterName },
      settings,
      now: Date.now,
      // Straight to the console, never into the log: the generated password is shown once.
      announce: (message) => process.stderr.write(`\n${message}\n\n`),
      log: { info: (m) => logger.info(m), warn: (m) => logger.warn(m) },
    },
    process.env.ELASTIC_PASSWORD,
  );
  return {
    routes: security.routes().map(mountRoute),
    guard(req, route, uri) {
      const r = security.guard(req, route.action, uri);
      if (r instanceof Promise) return r.then((answer) => apply(req, answer));
      apply(req, r);
      return undefined;
    },
    answered(req, route, res) {
      if (req.authentication) security.answered(req, route.action, req.authentication, res.status, res.body);
    },
  };
}
