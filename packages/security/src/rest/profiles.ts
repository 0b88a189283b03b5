/**
 * The user-profile APIs (`/_security/profile/…`): activate, get, enable and disable, update
 * labels and data, suggest, and has_privileges (profile-privileges.ts).
 */
import {
  actionRequestValidation,
  errorFragment,
  illegalArgument,
  notImplemented,
  parseException,
} from '@shoal/protocol';
import type { SecurityContext } from '../context.ts';
import { profileJson } from '../profiles/profile-document.ts';
import { type ProfileService, profileNotFound, type SuggestRequest } from '../profiles/profile-service.ts';
import { checkFields, stringField } from './object-parser.ts';
import { profileHasPrivileges } from './profile-privileges.ts';
import {
  checkParams,
  checkRefresh,
  listParam,
  ok,
  requiredObjectBody,
  type SecurityRequest,
  type SecurityRoute,
} from './route.ts';

const A = 'cluster:admin/ext/security/profile';

function service(ctx: SecurityContext): ProfileService {
  if (!ctx.profiles) throw notImplemented('user profiles without a profile index');
  return ctx.profiles;
}

/** Grant.validate for the two grants a profile is activated with. */
function grantErrors(g: Record<string, string | undefined>): string[] {
  const errors: string[] = [];
  const type = g.grant_type;
  if (type === undefined) return ['[grant_type] is required'];
  const required = (f: string) => {
    if (!g[f]) errors.push(`[${f}] is required for grant_type [${type}]`);
  };
  const unsupported = (f: string) => {
    if (g[f] !== undefined) errors.push(`[${f}] is not supported for grant_type [${type}]`);
  };
  if (type === 'password') {
    required('username');
    required('password');
    unsupported('access_token');
  } else if (type === 'access_token') {
    required('access_token');
    unsupported('username');
    unsupported('password');
  } else errors.push(`grant_type [${type}] is not supported`);
  return errors;
}

async function activate(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, []);
  const profiles = service(ctx);
  const parser = 'activate_profile_request';
  const body = requiredObjectBody(req);
  const fields = ['grant_type', 'username', 'password', 'access_token'];
  checkFields(req, parser, body, fields);
  const g = Object.fromEntries(fields.map((f) => [f, stringField(req, parser, body, f)]));
  const errors = grantErrors(g);
  if (errors.length > 0) throw actionRequestValidation(errors);
  // The grant's credentials are authenticated, not the caller's (the dashboard activates the
  // profile of the user signing in).
  const header =
    g.grant_type === 'password'
      ? `Basic ${Buffer.from(`${g.username}:${g.password}`).toString('base64')}`
      : `Bearer ${g.access_token}`;
  const { authentication } = await ctx.authenticator.authenticate(header, req.path);
  return ok(profileJson(await profiles.activate(authentication), []));
}

async function getProfiles(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['uid', 'data']);
  const profiles = service(ctx);
  const keys = listParam(req.query.data);
  const found: Record<string, unknown>[] = [];
  const details: Record<string, unknown> = {};
  for (const uid of listParam(req.params.uid)) {
    const p = await profiles.get(uid);
    if (p) found.push(profileJson(p, keys));
    else details[uid] = errorFragment(profileNotFound());
  }
  const out: Record<string, unknown> = { profiles: found };
  const count = Object.keys(details).length;
  if (count > 0) out.errors = { count, details };
  return ok(out);
}

async function setEnabled(ctx: SecurityContext, req: SecurityRequest, enabled: boolean) {
  checkParams(req, ['uid', 'refresh']);
  checkRefresh(req);
  await service(ctx).setEnabled(req.params.uid!, enabled);
  return ok({ acknowledged: true });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function seqParam(req: SecurityRequest, name: string): number | undefined {
  const v = req.query[name];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^-?\d+$/.test(v) || !Number.isSafeInteger(n))
    throw illegalArgument(`Failed to parse value [${v}] for [${name}]`);
  return n;
}

async function updateData(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['uid', 'if_seq_no', 'if_primary_term', 'refresh']);
  checkRefresh(req);
  const profiles = service(ctx);
  const body = requiredObjectBody(req);
  checkFields(req, 'update_profile_data_request_payload', body, ['labels', 'data']);
  for (const f of ['labels', 'data']) {
    if (body[f] !== undefined && !isObject(body[f]))
      throw parseException(`[update_profile_data_request_payload] failed to parse field [${f}]`);
  }
  const labels = body.labels as Record<string, unknown> | undefined;
  const data = body.data as Record<string, unknown> | undefined;
  const errors: string[] = [];
  const names = [...Object.keys(labels ?? {}), ...Object.keys(data ?? {})];
  if (names.length === 0) errors.push('update request is empty');
  for (const k of names) {
    if (k.includes('.')) errors.push(`application name must not contain dot, but found [${k}]`);
    if (k.startsWith('_')) errors.push(`application name must not start with underscore, but found [${k}]`);
  }
  const ifSeqNo = seqParam(req, 'if_seq_no');
  const ifPrimaryTerm = seqParam(req, 'if_primary_term');
  if (errors.length > 0) throw actionRequestValidation(errors);
  const update: { labels?: Record<string, unknown>; data?: Record<string, unknown> } = {};
  if (labels) update.labels = labels;
  if (data) update.data = data;
  await profiles.updateData(req.params.uid!, update, {
    ...(ifSeqNo === undefined ? {} : { ifSeqNo }),
    ...(ifPrimaryTerm === undefined ? {} : { ifPrimaryTerm }),
  });
  return ok({ acknowledged: true });
}

/** SuggestProfilesRequest's parse and validate. */
function suggestRequest(req: SecurityRequest): { r: SuggestRequest; dataKeys: string[] } {
  const parser = 'suggest_profile_request_payload';
  const body = req.body && req.body.length > 0 ? requiredObjectBody(req) : {};
  checkFields(req, parser, body, ['name', 'size', 'data', 'hint']);
  if (body.data !== undefined && req.query.data !== undefined) {
    throw illegalArgument(
      'The [data] parameter must be specified in either request body or as query parameter, but not both',
    );
  }
  const rawData = body.data ?? req.query.data;
  const dataKeys = Array.isArray(rawData)
    ? rawData.map(String)
    : listParam(rawData === undefined ? undefined : String(rawData));
  const size = body.size === undefined ? 10 : Number(body.size);
  if (!Number.isInteger(size)) throw parseException(`[${parser}] failed to parse field [size]`);
  const r: SuggestRequest = { name: stringField(req, parser, body, 'name') ?? '', size };
  const errors: string[] = [];
  if (size < 0) errors.push(`[size] parameter cannot be negative but was [${size}]`);
  if (body.hint !== undefined) {
    if (!isObject(body.hint)) throw parseException(`[${parser}] failed to parse field [hint]`);
    const { uids, labels } = body.hint as { uids?: unknown; labels?: unknown };
    const hint: NonNullable<SuggestRequest['hint']> = {};
    if (uids === undefined && labels === undefined) errors.push('[hint] parameter cannot be empty');
    if (uids !== undefined) {
      if (!Array.isArray(uids) || uids.length === 0) errors.push('[uids] hint cannot be empty');
      else hint.uids = uids.map(String);
    }
    if (labels !== undefined) {
      const entries = isObject(labels) ? Object.entries(labels) : [];
      if (entries.length !== 1) {
        errors.push(`[labels] hint supports a single key, got [${entries.map(([k]) => k).join(', ')}]`);
      } else {
        const [key, value] = entries[0]!;
        const values = (Array.isArray(value) ? value : [value]).map(String);
        if (key.includes('*')) errors.push('[labels] hint key cannot contain wildcard');
        else if (values.length === 0) errors.push('[labels] hint value cannot be empty');
        else hint.labels = { [key]: values };
      }
    }
    r.hint = hint;
  }
  if (errors.length > 0) throw actionRequestValidation(errors);
  return { r, dataKeys };
}

async function suggest(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['data']);
  const profiles = service(ctx);
  const started = Date.now();
  const { r, dataKeys } = suggestRequest(req);
  const found = await profiles.suggest(r);
  return ok({
    took: Date.now() - started,
    total: found.total,
    profiles: found.profiles.map((p) => profileJson(p, dataKeys, 'suggestion')),
  });
}

export function profileRoutes(ctx: SecurityContext): SecurityRoute[] {
  const routes: SecurityRoute[] = [
    {
      method: 'POST',
      path: '/_security/profile/_activate',
      action: `${A}/activate`,
      handler: (req) => activate(ctx, req),
    },
  ];
  for (const method of ['GET', 'POST'] as const) {
    routes.push(
      {
        method,
        path: '/_security/profile/_suggest',
        action: `${A}/suggest`,
        handler: (req) => suggest(ctx, req),
      },
      {
        method,
        path: '/_security/profile/_has_privileges',
        action: `${A}/has_privileges`,
        handler: (req) => profileHasPrivileges(ctx, service(ctx), req),
      },
    );
  }
  routes.push({
    method: 'GET',
    path: '/_security/profile/:uid',
    action: `${A}/get`,
    handler: (req) => getProfiles(ctx, req),
  });
  for (const method of ['POST', 'PUT'] as const) {
    routes.push(
      {
        method,
        path: '/_security/profile/:uid/_data',
        action: `${A}/put/data`,
        handler: (req) => updateData(ctx, req),
      },
      {
        method,
        path: '/_security/profile/:uid/_enable',
        action: `${A}/set_enabled`,
        handler: (req) => setEnabled(ctx, req, true),
      },
      {
        method,
        path: '/_security/profile/:uid/_disable',
        action: `${A}/set_enabled`,
        handler: (req) => setEnabled(ctx, req, false),
      },
    );
  }
  return routes;
}
