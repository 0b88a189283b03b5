/**
 * Authorization of one request (Elasticsearch's AuthorizationService with the RBAC engine):
 * the route's action against the user's roles. Cluster actions need a cluster privilege; index
 * actions need an index privilege on every index they name. Wildcards expand only to the names
 * the user may use (the request's index expression is rewritten to those); writes to a missing
 * index need `indices:admin/auto_create` as well (the 7.8 rule). Shoal's `/_internal/*` routes
 * are for `superuser` only.
 */
import { accessDenied, securityException } from '@shoal/protocol';
import type { Authentication } from '../authc/authentication.ts';
import type { IndexNamespace } from '../host.ts';
import {
  aliasActionTargets,
  bulkTargets,
  type ItemTarget,
  mgetTargets,
  msearchTargets,
  reindexTargets,
} from './composite-targets.ts';
import { actionDeniedMessage, principalText } from './denial.ts';
import { AUTO_CREATE_ACTION } from './index-privileges.ts';
import { isRestrictedIndex, type Permission as Role } from './role.ts';

export interface AuthorizationRequest {
  method: string;
  path: string;
  params: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string>>;
  body: Buffer | undefined;
  json(): unknown;
}

/** What the request must change to stay within its privileges. */
export interface AuthorizationResult {
  /** The index expression to use instead of the request's (only authorized names). */
  index?: string;
  /**
   * The `_bulk` items the user may not write, by position, each with its 403: they fail alone
   * and the others run (AuthorizationService.authorizeBulkItems aborts each denied item).
   */
  deniedItems?: ReadonlyMap<number, Error>;
}

const BULK = 'indices:data/write/bulk';
const UPDATE = 'indices:data/write/update';

/**
 * UpdateRequestInterceptor and BulkShardRequestInterceptor: an update reads the document as
 * the user sees it, so with document or field restrictions it could drop what the user cannot
 * see; Elasticsearch refuses it.
 */
const UPDATE_REFUSED = "Can't execute an update request if field or document level security is enabled";
const BULK_UPDATE_REFUSED =
  "Can't execute a bulk item request with update requests embedded if field or document level security is enabled";

/** The item actions a composite request may carry (all of them must be granted everywhere for the fast path). */
const ITEM_ACTIONS: Record<string, string[]> = {
  'indices:data/write/bulk': [
    'indices:data/write/index:op_type/index',
    'indices:data/write/index:op_type/create',
    'indices:data/write/update',
    'indices:data/write/delete',
    AUTO_CREATE_ACTION,
  ],
  'indices:data/read/mget': ['indices:data/read/mget[shard]'],
  'indices:admin/aliases': ['indices:admin/delete'],
  'indices:data/write/index': [
    'indices:data/write/index:op_type/index',
    'indices:data/write/index:op_type/create',
    AUTO_CREATE_ACTION,
  ],
  'indices:data/write/update': [AUTO_CREATE_ACTION],
  'indices:data/read/msearch': ['indices:data/read/search'],
  'indices:data/read/msearch/template': ['indices:data/read/search'],
  'indices:data/write/reindex': [
    'indices:data/read/search',
    'indices:data/write/index:op_type/index',
    'indices:data/write/index:op_type/create',
    AUTO_CREATE_ACTION,
  ],
};

type Deny = (context?: string, opts?: { action?: string; withPrivileges?: boolean }) => Error;

const NONE: AuthorizationResult = Object.freeze({});

/** Actions every authenticated user may take on their own account (RBACEngine's SAME_USER_PRIVILEGE). */
const SAME_USER_ACTIONS = new Set([
  'cluster:admin/ext/security/user/authenticate',
  'cluster:admin/ext/security/user/has_privileges',
  'cluster:admin/ext/security/user/list_privileges',
]);
const CHANGE_PASSWORD = 'cluster:admin/ext/security/user/change_password';

/** Scroll continuations and context releases name no index: the contexts carry their own. */
const SCROLL = 'indices:data/read/scroll';
const CONTEXT_RELEASES = new Set([
  'indices:data/read/scroll/clear',
  'indices:data/read/close_point_in_time',
  'indices:data/read/point_in_time/delete',
]);

/** An expression that resolves to nothing (IndicesAndAliasesResolver's NO_INDICES_OR_ALIASES). */
export const NO_INDICES = '*,-*';

export class Authorizer {
  constructor(private readonly indices: IndexNamespace) {}

  authorize(
    auth: Authentication,
    role: Role,
    req: AuthorizationRequest,
    action: string,
    runBy?: string,
  ): AuthorizationResult {
    const deny: Deny = (context, opts = {}) =>
      accessDenied(
        actionDeniedMessage(
          opts.action ?? action,
          principalText(auth, role, runBy),
          context,
          opts.withPrivileges ?? true,
        ),
      );

    if (req.path.startsWith('/_internal/')) {
      if (!role.names.includes('superuser')) throw deny(undefined, { withPrivileges: false });
      return NONE;
    }
    if (SAME_USER_ACTIONS.has(action)) return NONE;
    if (
      action === CHANGE_PASSWORD &&
      (req.params.username === undefined || req.params.username === auth.user.username)
    ) {
      return NONE;
    }
    if (!action.startsWith('indices:')) {
      if (role.cluster(action)) return NONE;
      if (role.ownApiKeys && ownApiKeyRequest(auth, action, req)) return NONE;
      const apps = APPLICATION_PRIVILEGE_ACTIONS.has(action) ? requestApplications(req, action) : undefined;
      if (apps && role.managesApplications(apps)) return NONE;
      throw deny();
    }
    if (CONTEXT_RELEASES.has(action)) return NONE;
    if (action === SCROLL || hasPit(req, action)) {
      if (!role.indexSomewhere(action)) throw deny();
      return NONE;
    }
    const updates = role.restrictsDocumentsOrFields && (action === BULK || action === UPDATE);
    if (!updates && this.unrestrictedEverywhere(role, req, action)) return NONE;
    // RBACEngine.authorizeIndexAction: a role that grants the action on no index at all is
    // refused before the request's indices are even resolved.
    if (!role.indexSomewhere(action)) {
      const named = req.params.index;
      throw deny(named === undefined ? undefined : `on indices [${named}]`);
    }
    const items = this.itemTargets(req, action);
    if (items && action === BULK) return this.bulkItems(auth, role, items, deny);
    if (items) {
      for (const item of items) this.checkItem(role, item, deny);
      if (updates && items.some((i) => restricts(auth, role, i)))
        throw securityException(UPDATE_REFUSED, 400);
      return NONE;
    }
    return this.authorizeExpression(role, req, action, deny);
  }

  /**
   * The common case of a user with the action on `*` (a superuser, an admin) and a request that
   * cannot reach a restricted index: granted without resolving or reading anything.
   */
  private unrestrictedEverywhere(role: Role, req: AuthorizationRequest, action: string): boolean {
    const { params, query } = req;
    if (!role.indexEverywhere(action)) return false;
    const expression = params.index ?? '';
    if (/(^|,)-?\./.test(expression)) return false;
    if (query.expand_wildcards !== undefined && /all|hidden/.test(query.expand_wildcards)) return false;
    const items = ITEM_ACTIONS[action];
    if (items) {
      if (req.body?.includes('.security')) return false;
      for (const a of items) if (!role.indexEverywhere(a)) return false;
    }
    return true;
  }

  private itemTargets(req: AuthorizationRequest, action: string): ItemTarget[] | undefined {
    const { params } = req;
    if (action === BULK) return bulkTargets(req.body, params.index);
    if (action === 'indices:data/read/mget') return mgetTargets(req.json(), params.index);
    if (action === 'indices:data/read/msearch' || action === 'indices:data/read/msearch/template') {
      return msearchTargets(req.body, params.index);
    }
    if (action === 'indices:data/write/reindex') return reindexTargets(req.json());
    if (action === 'indices:admin/aliases' && params.index === undefined)
      return aliasActionTargets(req.json());
    if (action === 'indices:data/write/index' && params.index !== undefined) {
      const create =
        req.path.includes('/_create/') ||
        req.query.op_type === 'create' ||
        (req.method === 'POST' && params.id === undefined);
      return [
        { action, index: params.index, mayCreate: true },
        {
          action: create
            ? 'indices:data/write/index:op_type/create'
            : 'indices:data/write/index:op_type/index',
          index: params.index,
          mayCreate: true,
        },
      ];
    }
    if (action === 'indices:data/write/update' && params.index !== undefined) {
      return [{ action, index: params.index, mayCreate: true }];
    }
    return undefined;
  }

  private bulkItems(auth: Authentication, role: Role, items: ItemTarget[], deny: Deny): AuthorizationResult {
    const denied = new Map<number, Error>();
    for (const item of items) {
      try {
        this.checkItem(role, item, deny);
        if (item.action === UPDATE && restricts(auth, role, item)) {
          denied.set(item.position!, securityException(BULK_UPDATE_REFUSED, 400));
        }
      } catch (e) {
        denied.set(item.position!, e as Error);
      }
    }
    return denied.size === 0 ? NONE : { deniedItems: denied };
  }

  private checkItem(role: Role, item: ItemTarget, deny: Deny): void {
    if (!role.index(item.action, item.index))
      throw deny(`on indices [${item.index}]`, { action: item.action });
    if (item.mayCreate && !this.indices.exists(item.index) && !role.index(AUTO_CREATE_ACTION, item.index)) {
      throw deny(`on indices [${item.index}]`, { action: AUTO_CREATE_ACTION });
    }
  }

  private authorizeExpression(
    role: Role,
    req: AuthorizationRequest,
    action: string,
    deny: Deny,
  ): AuthorizationResult {
    const expression = req.params.index ?? '_all';
    const { literal, matched } = this.indices.expand(expression, req.query as Record<string, string>);
    const everywhere = role.indexEverywhere(action);
    const deniedLiteral = literal.filter(
      (n) => !(everywhere && !isRestrictedIndex(n)) && !role.index(action, n),
    );
    if (deniedLiteral.length > 0) throw deny(`on indices [${deniedLiteral.join(',')}]`);
    const allowedMatched = matched.filter(
      (n) => (everywhere && !isRestrictedIndex(n)) || role.index(action, n),
    );
    if (allowedMatched.length === matched.length) return NONE;
    const names = [...literal, ...allowedMatched];
    return { index: names.length > 0 ? names.join(',') : NO_INDICES };
  }
}

/** Whether the user's documents or fields of an update's index are restricted. */
function restricts(auth: Authentication, role: Role, item: ItemTarget): boolean {
  return item.action === UPDATE && role.documentFieldAccess(UPDATE, [item.index], auth.user) !== undefined;
}

function hasPit(req: AuthorizationRequest, action: string): boolean {
  if (action !== 'indices:data/read/search' || req.body === undefined) return false;
  // Most searches have no point in time: their bodies are not parsed here for nothing.
  if (!req.body.includes('"pit"')) return false;
  const body = req.json();
  return typeof body === 'object' && body !== null && 'pit' in body;
}

const PRIVILEGE = 'cluster:admin/ext/security/privilege';
/** The application privilege APIs a role's `global.application.manage` may grant. */
const APPLICATION_PRIVILEGE_ACTIONS = new Set([
  `${PRIVILEGE}/put`,
  `${PRIVILEGE}/get`,
  `${PRIVILEGE}/delete`,
]);

/** The applications an application privilege request names (ApplicationPrivilegesRequest). */
function requestApplications(req: AuthorizationRequest, action: string): string[] {
  if (action === `${PRIVILEGE}/put`) {
    const body = req.json();
    return typeof body === 'object' && body !== null ? Object.keys(body) : [];
  }
  const app = req.params.application;
  return app === undefined ? [] : app.split(',').filter((a) => a !== '');
}

const API_KEY = 'cluster:admin/ext/security/api_key';
const OWN_KEY_ACTIONS = new Set([
  `${API_KEY}/create`,
  `${API_KEY}/update`,
  `${API_KEY}/bulk_update`,
  `${API_KEY}/query`,
]);

/**
 * ManageOwnApiKeyClusterPrivilege: creating a key, and getting or invalidating keys when the
 * request names only the caller's own (`owner=true`, its own user and realm, or — for a
 * request made with a key — that key itself).
 */
function ownApiKeyRequest(auth: Authentication, action: string, req: AuthorizationRequest): boolean {
  // The handlers of these keep to the caller's own keys themselves.
  if (OWN_KEY_ACTIONS.has(action)) return true;
  const self = (username: unknown, realm: unknown) =>
    !auth.apiKey && username === auth.user.username && realm === auth.realm.name;
  if (action === `${API_KEY}/get`) {
    const q = req.query;
    if (q.owner === 'true' || q.owner === '') return true;
    if (self(q.username, q.realm_name)) return true;
    return auth.apiKey !== undefined && q.id === auth.apiKey.id;
  }
  if (action === `${API_KEY}/invalidate`) {
    const body = req.json() as Record<string, unknown> | undefined;
    if (typeof body !== 'object' || body === null) return false;
    if (body.owner === true) return true;
    if (self(body.username, body.realm_name)) return true;
    const ids = Array.isArray(body.ids) ? body.ids : body.id !== undefined ? [body.id] : [];
    return auth.apiKey !== undefined && ids.length === 1 && ids[0] === auth.apiKey.id;
  }
  return false;
}
