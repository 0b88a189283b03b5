/**
 * Security in the node: starts it on the node's own engine (the system index through the
 * node's handlers), and gives the HTTP app its guard and its `/_security` routes. With
 * `xpack.security.enabled: false` there is neither: every request is served as before.
 */
import { join } from 'node:path';
import {
  type GuardResult,
  type HttpTls,
  loadHttpSsl,
  SECURITY_ENABLED_SETTING,
  SECURITY_INDEX,
  Security,
  type SecurityRoute,
  secureSettingsFrom,
  securityEnabled,
} from '@shoal/security';
import type { Logger } from 'pino';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import { configDir } from '../license/license-signature.ts';
import type { NodeServices } from '../services.ts';
import type { PrivilegeCheck } from '../transforms/transform-privileges.ts';
import { NodeIndexNamespace } from './index-namespace.ts';
import { InternalClient } from './internal-client.ts';
import { PROFILE_INDEX, ProfileIndexStore } from './profile-index-store.ts';
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
  /** Security's `_has_privileges` for a user other than the request's (a transform's owner). */
  privilegeCheck: PrivilegeCheck;
}

function apply(req: RestRequest, r: GuardResult): void {
  req.authentication = r.authentication;
  if (r.index !== undefined) req.params = { ...req.params, index: r.index };
  if (r.deniedItems !== undefined) req.deniedItems = r.deniedItems;
  if (r.access !== undefined) req.indexAccess = r.access;
}

/** The security routes whose action depends on the request. */
const actionOfRoute = new WeakMap<Route<NodeServices>, (req: RestRequest) => string>();

function mountRoute(r: SecurityRoute): Route<NodeServices> {
  const route: Route<NodeServices> = {
    method: r.method,
    path: r.path,
    action: r.action,
    handler: (req) => r.handler(req, req.authentication!),
  };
  if (r.actionOf) actionOfRoute.set(route, r.actionOf);
  return route;
}

/**
 * As Elasticsearch's Docker image does, a node setting may also come as an environment
 * variable of the same name (`xpack.security.enabled=false`).
 */
function withEnvironment(settings: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const fromEnv = process.env[SECURITY_ENABLED_SETTING];
  return fromEnv === undefined ? settings : { ...settings, [SECURITY_ENABLED_SETTING]: fromEnv };
}

/**
 * The key and certificates to serve HTTPS with (`xpack.security.http.ssl.enabled`), read before
 * the HTTP port is bound; undefined for plain HTTP. A configuration that cannot serve throws.
 */
export function nodeHttpTls(settings: Readonly<Record<string, string>>): HttpTls | undefined {
  const effective = withEnvironment(settings);
  if (!securityEnabled(effective)) return undefined;
  return loadHttpSsl(effective, configDir())?.tls;
}

/** Errors of a security index that cannot be reached yet: its copy is on a node still (re)joining. */
const UNREACHABLE = new Set([
  'no_shard_available_action_exception',
  'node_not_connected_exception',
  'connect_exception',
  'node_disconnected_exception',
  'receive_timeout_transport_exception',
]);

/** How long a starting node waits for the security index to serve (a cluster forming after a full restart). */
const SECURITY_INDEX_WAIT_MS = 60_000;

/**
 * Starts security, again while the security index is unreachable: after a full-cluster restart
 * its primary stays unassigned until the node that holds its data has joined, which may take
 * longer than the wait for active primaries.
 */
async function whenSecurityIndexServes<T>(logger: Logger, start: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + SECURITY_INDEX_WAIT_MS;
  for (;;) {
    try {
      return await start();
    } catch (e) {
      const type = (e as { type?: unknown }).type;
      if (typeof type !== 'string' || !UNREACHABLE.has(type) || Date.now() > deadline) throw e;
      logger.info({ err: e }, 'the security index cannot be reached yet; trying again');
      await new Promise((r) => setTimeout(r, 500));
    }
  }
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
  settings = withEnvironment(settings);
  if (!securityEnabled(settings)) {
    logger.warn(
      'security is disabled ([xpack.security.enabled] is [false]): every request is served without credentials',
    );
    return undefined;
  }
  const client = new InternalClient(nodeRoutes, services);
  const security = await whenSecurityIndexServes(logger, () =>
    Security.start(
      {
        store: new SystemIndexDocStore(
          client,
          () => services.indices.get(SECURITY_INDEX) !== undefined,
          () => services.indices.primariesActive(SECURITY_INDEX),
        ),
        profiles: new ProfileIndexStore(client, () => services.indices.get(PROFILE_INDEX) !== undefined),
        indices: new NodeIndexNamespace(services.indices),
        fileRealmDir: join(dataPath, FILE_REALM_FOLDER),
        node: { id: services.node.id, name: services.node.name, clusterName: services.node.clusterName },
        settings,
        secureSettings: secureSettingsFrom(process.env),
        // Relative key and certificate paths are read from the node's config directory.
        configDir: configDir(),
        now: Date.now,
        // Straight to the console, never into the log: the generated password is shown once.
        announce: (message) => process.stderr.write(`\n${message}\n\n`),
        log: { info: (m) => logger.info(m), warn: (m) => logger.warn(m) },
      },
      process.env.ELASTIC_PASSWORD,
    ),
  );
  const hasPrivileges = security
    .routes()
    .find((r) => r.method === 'POST' && r.path === '/_security/user/_has_privileges');
  if (!hasPrivileges) throw new Error('security has no _has_privileges route');
  const privilegeCheck: PrivilegeCheck = async (auth, index) => {
    const body = { index };
    const bytes = Buffer.from(JSON.stringify(body));
    const res = await hasPrivileges.handler(
      {
        method: 'POST',
        path: '/_security/user/_has_privileges',
        params: {},
        query: {},
        body: bytes,
        json: () => body,
        headers: {},
        warnings: [],
      },
      auth,
    );
    const answer = res.body as { has_all_requested: boolean; index: Record<string, Record<string, boolean>> };
    return { hasAll: answer.has_all_requested, index: answer.index };
  };
  const ssl = security.httpSsl;
  if (ssl) {
    logger.info(
      { certificates: ssl.certificates.map((c) => c.path), ca_fingerprint: ssl.caFingerprint },
      `HTTP is served over TLS; clients trust it with the CA certificate of SHA-256 fingerprint [${ssl.caFingerprint}]`,
    );
  }
  return {
    privilegeCheck,
    routes: security.routes().map(mountRoute),
    guard(req, route, uri) {
      const r = security.guard(req, actionOfRoute.get(route)?.(req) ?? route.action, uri);
      if (r instanceof Promise) return r.then((answer) => apply(req, answer));
      apply(req, r);
      return undefined;
    },
    answered(req, route, res) {
      if (req.authentication) security.answered(req, route.action, req.authentication, res.status, res.body);
    },
  };
}
