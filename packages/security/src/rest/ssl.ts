/**
 * `GET /_ssl/certificates` (RestGetCertificateInfoAction): every certificate the node has
 * configured, as the node loaded them at start; an empty list when TLS is not configured.
 */
import type { SecurityContext } from '../context.ts';
import { checkParams, ok, type SecurityRoute } from './route.ts';

export function sslRoutes(ctx: SecurityContext): SecurityRoute[] {
  return [
    {
      method: 'GET',
      path: '/_ssl/certificates',
      action: 'cluster:monitor/ext/ssl/certificates/get',
      handler(req) {
        checkParams(req, []);
        return ok(ctx.httpSsl?.certificates ?? []);
      },
    },
  ];
}
