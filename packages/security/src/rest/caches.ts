/** `POST /_security/realm/{realms}/_clear_cache`: forgets cached authentications. */
import { clearCacheBody, type SecurityContext } from '../context.ts';
import { checkParams, listParam, ok, type SecurityRoute } from './route.ts';

export function cacheRoutes(ctx: SecurityContext): SecurityRoute[] {
  return [
    {
      method: 'POST',
      path: '/_security/realm/:realms/_clear_cache',
      action: 'cluster:admin/ext/security/realm/cache/clear',
      handler(req) {
        checkParams(req, ['realms', 'usernames']);
        const usernames = listParam(req.query.usernames);
        // Shoal's realms share one cache: naming any of them clears it (for the given users).
        ctx.authenticator.invalidate(usernames.length > 0 ? usernames : undefined);
        return ok(clearCacheBody(ctx.host));
      },
    },
  ];
}
