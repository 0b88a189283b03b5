/**
 * The user APIs: get, put, delete, change password, enable and disable
 * (`/_security/user/…`), over the reserved and native realms.
 */
import { actionRequestValidation, illegalArgument, validationException } from '@shoal/protocol';
import type { Authentication } from '../authc/authentication.ts';
import { isInternalUser, isReservedUser, RESERVED_USERNAMES, reservedUser } from '../authc/reserved-users.ts';
import { type User, userJson } from '../authc/user.ts';
import type { SecurityContext } from '../context.ts';
import {
  byNames,
  checkParams,
  checkRefresh,
  listParam,
  ok,
  requiredObjectBody,
  type SecurityRequest,
  type SecurityRoute,
} from './route.ts';
import { parseChangePasswordBody, parsePutUserBody } from './user-body.ts';
import { passwordError, usernameError } from './validation.ts';

const A = 'cluster:admin/ext/security/user';

async function reservedUserNow(ctx: SecurityContext, name: string): Promise<User> {
  const doc = await ctx.users.getReserved(name);
  return reservedUser(name, doc?.enabled ?? true)!;
}

async function getUsers(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['username', 'with_profile_uid']);
  return byNames(
    listParam(req.params.username),
    async () => {
      const out: [string, unknown][] = [];
      for (const name of RESERVED_USERNAMES) out.push([name, userJson(await reservedUserNow(ctx, name))]);
      const natives = (await ctx.users.listNative()).sort((a, b) =>
        a.user.username < b.user.username ? -1 : 1,
      );
      for (const n of natives) out.push([n.user.username, userJson(n.user)]);
      return out;
    },
    async (name) => {
      if (isReservedUser(name)) return userJson(await reservedUserNow(ctx, name));
      if (isInternalUser(name)) return undefined;
      const n = await ctx.users.getNative(name);
      return n && userJson(n.user);
    },
  );
}

/** A password or a password hash of the configured algorithm, hashed: what gets stored. */
async function newPasswordHash(
  ctx: SecurityContext,
  password: string | undefined,
  passwordHash: string | undefined,
  errors: string[],
): Promise<string | undefined> {
  if (password !== undefined && passwordHash !== undefined) {
    errors.push('only one of [password, passwordHash] can be provided');
    return undefined;
  }
  if (passwordHash !== undefined) {
    if (!ctx.hasher.accepts(passwordHash))
      errors.push(
        'The provided password hash is not a hash or it could not be resolved to a supported hash algorithm. The supported password hash algorithms are [bcrypt]',
      );
    return errors.length === 0 ? passwordHash : undefined;
  }
  if (password !== undefined) {
    const e = passwordError(password);
    if (e) errors.push(e);
    return errors.length === 0 ? ctx.hasher.hash(password) : undefined;
  }
  return undefined;
}

async function putUser(ctx: SecurityContext, req: SecurityRequest, auth: Authentication) {
  checkParams(req, ['username', 'refresh']);
  checkRefresh(req);
  const username = req.params.username!;
  const body = parsePutUserBody(username, requiredObjectBody(req));
  const errors: string[] = [];
  const nameErr = usernameError(username);
  if (nameErr) errors.push(nameErr);
  else if (isReservedUser(username))
    errors.push(`user [${username}] is reserved and only the password can be changed`);
  else if (isInternalUser(username)) errors.push(`user [${username}] is internal`);
  for (const k of Object.keys(body.metadata ?? {})) {
    if (k.startsWith('_')) errors.push(`metadata keys may not start with [_]`);
  }
  if (body.enabled === false && username === auth.user.username) {
    errors.push('native and reserved realm users may not update the enabled status of their own account');
  }
  if (errors.length > 0) throw actionRequestValidation(errors);
  const hash = await newPasswordHash(ctx, body.password, body.passwordHash, errors);
  if (errors.length > 0) throw actionRequestValidation(errors);
  const existing = await ctx.users.getNative(username);
  if (!existing && hash === undefined) {
    throw validationException(['password must be specified unless you are updating an existing user']);
  }
  const user: User = {
    username,
    roles: body.roles ?? existing?.user.roles ?? [],
    fullName: body.fullName !== undefined ? body.fullName : (existing?.user.fullName ?? null),
    email: body.email !== undefined ? body.email : (existing?.user.email ?? null),
    metadata: body.metadata ?? existing?.user.metadata ?? {},
    enabled: body.enabled ?? existing?.user.enabled ?? true,
  };
  const r = await ctx.users.putNative({ user, passwordHash: hash ?? existing!.passwordHash });
  ctx.authenticator.invalidate([username]);
  return ok({ created: r === 'created' });
}

async function deleteUser(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['username', 'refresh']);
  checkRefresh(req);
  const username = req.params.username!;
  if (isReservedUser(username)) throw illegalArgument(`user [${username}] is reserved and cannot be deleted`);
  if (isInternalUser(username)) throw illegalArgument(`user [${username}] is internal`);
  const found = await ctx.users.deleteNative(username);
  ctx.authenticator.invalidate([username]);
  return ok({ found }, found ? 200 : 404);
}

async function changePassword(ctx: SecurityContext, req: SecurityRequest, auth: Authentication) {
  checkParams(req, ['username', 'refresh']);
  checkRefresh(req);
  const username = req.params.username ?? auth.user.username;
  const body = parseChangePasswordBody(requiredObjectBody(req));
  const errors: string[] = [];
  if (body.password === undefined && body.passwordHash === undefined)
    errors.push('password must be specified');
  if (isInternalUser(username)) errors.push(`user [${username}] is internal`);
  if (errors.length > 0) throw actionRequestValidation(errors);
  const hash = await newPasswordHash(ctx, body.password, body.passwordHash, errors);
  if (errors.length > 0 || hash === undefined) throw actionRequestValidation(errors);
  if (isReservedUser(username)) {
    const doc = await ctx.users.getReserved(username);
    await ctx.users.putReserved(username, { passwordHash: hash, enabled: doc?.enabled ?? true });
  } else {
    const existing = await ctx.users.getNative(username);
    if (!existing) throw validationException(['user must exist in order to change password']);
    await ctx.users.putNative({ user: existing.user, passwordHash: hash });
  }
  ctx.authenticator.invalidate([username]);
  return ok({});
}

async function setEnabled(
  ctx: SecurityContext,
  req: SecurityRequest,
  auth: Authentication,
  enabled: boolean,
) {
  checkParams(req, ['username', 'refresh']);
  checkRefresh(req);
  const username = req.params.username!;
  if (username === auth.user.username) {
    throw illegalArgument('users may not update the enabled status of their own account');
  }
  if (isInternalUser(username)) throw illegalArgument(`user [${username}] is internal`);
  if (isReservedUser(username)) {
    const doc = await ctx.users.getReserved(username);
    await ctx.users.putReserved(username, { passwordHash: doc?.passwordHash ?? '', enabled });
  } else {
    const existing = await ctx.users.getNative(username);
    if (!existing) throw validationException(['user must exist in order to change enabled status']);
    await ctx.users.putNative({ user: { ...existing.user, enabled }, passwordHash: existing.passwordHash });
  }
  ctx.authenticator.invalidate([username]);
  return ok({});
}

export function userRoutes(ctx: SecurityContext): SecurityRoute[] {
  const get = (req: SecurityRequest) => getUsers(ctx, req);
  const put = (req: SecurityRequest, auth: Authentication) => putUser(ctx, req, auth);
  const password = (req: SecurityRequest, auth: Authentication) => changePassword(ctx, req, auth);
  const enable = (req: SecurityRequest, auth: Authentication) => setEnabled(ctx, req, auth, true);
  const disable = (req: SecurityRequest, auth: Authentication) => setEnabled(ctx, req, auth, false);
  return [
    { method: 'GET', path: '/_security/user', action: `${A}/get`, handler: get },
    { method: 'GET', path: '/_security/user/:username', action: `${A}/get`, handler: get },
    { method: 'PUT', path: '/_security/user/:username', action: `${A}/put`, handler: put },
    { method: 'POST', path: '/_security/user/:username', action: `${A}/put`, handler: put },
    {
      method: 'DELETE',
      path: '/_security/user/:username',
      action: `${A}/delete`,
      handler: (req) => deleteUser(ctx, req),
    },
    { method: 'PUT', path: '/_security/user/_password', action: `${A}/change_password`, handler: password },
    { method: 'POST', path: '/_security/user/_password', action: `${A}/change_password`, handler: password },
    {
      method: 'PUT',
      path: '/_security/user/:username/_password',
      action: `${A}/change_password`,
      handler: password,
    },
    {
      method: 'POST',
      path: '/_security/user/:username/_password',
      action: `${A}/change_password`,
      handler: password,
    },
    { method: 'PUT', path: '/_security/user/:username/_enable', action: `${A}/set_enabled`, handler: enable },
    {
      method: 'POST',
      path: '/_security/user/:username/_enable',
      action: `${A}/set_enabled`,
      handler: enable,
    },
    {
      method: 'PUT',
      path: '/_security/user/:username/_disable',
      action: `${A}/set_enabled`,
      handler: disable,
    },
    {
      method: 'POST',
      path: '/_security/user/:username/_disable',
      action: `${A}/set_enabled`,
      handler: disable,
    },
  ];
}
