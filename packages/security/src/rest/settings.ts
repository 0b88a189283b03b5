/**
 * `GET|PUT /_security/settings` (8.10+): the user-configurable settings of the security system
 * indices — only `index.auto_expand_replicas` and `index.number_of_replicas`. Shoal keeps
 * users, roles, keys and tokens in one index, `.security-7` (`security`); the token and
 * profile indices (`security-tokens`, `security-profile`) do not exist, so they answer `{}`
 * and cannot be configured.
 */
import { actionRequestValidation, illegalArgument } from '@shoal/protocol';
import type { SecurityContext } from '../context.ts';
import { checkParams, ok, requiredObjectBody, type SecurityRequest, type SecurityRoute } from './route.ts';

const ALLOWED = ['index.auto_expand_replicas', 'index.number_of_replicas'];
const PARTS = ['security', 'security-tokens', 'security-profile'];

/** `{index: {number_of_replicas: 1}}` and `{"index.number_of_replicas": 1}` alike, flat. */
function flatten(
  v: unknown,
  prefix = '',
  out: Record<string, string | null> = {},
): Record<string, string | null> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw illegalArgument('security index settings must be an object of settings');
  }
  for (const [k, x] of Object.entries(v)) {
    const key = prefix === '' ? k : `${prefix}.${k}`;
    if (typeof x === 'object' && x !== null && !Array.isArray(x)) flatten(x, key, out);
    else out[key.startsWith('index.') ? key : `index.${key}`] = x === null ? null : String(x);
  }
  return out;
}

async function getSettings(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['master_timeout']);
  const all = await ctx.host.store.getSettings();
  const index: Record<string, string> = {};
  for (const k of ALLOWED) if (all[k] !== undefined) index[k.slice('index.'.length)] = all[k]!;
  return ok({ security: { index }, 'security-profile': {}, 'security-tokens': {} });
}

async function putSettings(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['master_timeout', 'timeout']);
  const body = requiredObjectBody(req);
  const errors: string[] = [];
  let security: Record<string, string | null> = {};
  for (const [part, v] of Object.entries(body)) {
    if (!PARTS.includes(part)) {
      errors.push(`unknown security index [${part}], expected one of [${PARTS.join(', ')}]`);
      continue;
    }
    const flat = flatten(v);
    const illegal = Object.keys(flat).filter((k) => !ALLOWED.includes(k));
    if (illegal.length > 0) {
      errors.push(
        `illegal settings for index [${part}]: [${illegal.join(', ')}], these settings may not be configured. Only the following settings may be configured for that index: [${ALLOWED.join(', ')}]`,
      );
    }
    if (part === 'security') security = flat;
    else if (Object.keys(flat).length > 0)
      errors.push(`the [${part}] index does not exist in Shoal and cannot be configured`);
  }
  if (errors.length > 0) throw actionRequestValidation(errors);
  // As Elasticsearch does: a replica range set wins over a replica count.
  if (
    security['index.auto_expand_replicas'] !== undefined &&
    security['index.auto_expand_replicas'] !== null
  ) {
    delete security['index.number_of_replicas'];
  }
  if (Object.keys(security).length > 0) await ctx.host.store.updateSettings(security);
  return ok({ acknowledged: true });
}

export function settingsRoutes(ctx: SecurityContext): SecurityRoute[] {
  return [
    {
      method: 'GET',
      path: '/_security/settings',
      action: 'cluster:admin/ext/security/settings/get',
      handler: (req) => getSettings(ctx, req),
    },
    {
      method: 'PUT',
      path: '/_security/settings',
      action: 'cluster:admin/ext/security/settings/update',
      handler: (req) => putSettings(ctx, req),
    },
  ];
}
