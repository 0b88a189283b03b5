/**
 * Enrollment (`GET /_security/enroll/…`): the dashboard gets a new token of the
 * `elastic/dashboard` service account and the CA that signs the node's HTTP certificate, as
 * Elasticsearch's dashboard enrollment answers. Elasticsearch takes that CA from the HTTP
 * keystore; Shoal, whose TLS is configured with PEM files, takes the one CA certificate of
 * `xpack.security.http.ssl.certificate_authorities`. Node enrollment needs TLS on the transport
 * between nodes, which Shoal does not have yet.
 */
import { illegalState, notImplemented } from '@shoal/protocol';
import type { SecurityContext } from '../context.ts';
import { checkParams, ok, type SecurityRoute } from './route.ts';

const A = 'cluster:admin/ext/security/enroll';
const DASHBOARD_ACCOUNT = 'elastic/dashboard';

async function enrollDashboard(ctx: SecurityContext) {
  const ssl = ctx.httpSsl;
  if (!ssl) {
    throw illegalState(
      'Unable to enroll the dashboard: the node does not serve HTTPS ([xpack.security.http.ssl.enabled] is not true)',
    );
  }
  if (ssl.caCertificates.length !== 1) {
    throw illegalState(
      `Unable to enroll the dashboard: [xpack.security.http.ssl.certificate_authorities] must hold a single CA certificate, but holds [${ssl.caCertificates.length}]`,
    );
  }
  // The dashboard enrollment action names its token by the time it was made.
  for (let at = ctx.host.now(); ; at++) {
    const token = await ctx.serviceTokens.create(DASHBOARD_ACCOUNT, `enroll-process-token-${at}`);
    if (token !== 'exists') return ok({ token, http_ca: ssl.caCertificates[0]!.raw.toString('base64') });
  }
}

export function enrollmentRoutes(ctx: SecurityContext): SecurityRoute[] {
  return [
    {
      method: 'GET',
      path: '/_security/enroll/dashboard',
      action: `${A}/dashboard`,
      handler(req) {
        checkParams(req, []);
        return enrollDashboard(ctx);
      },
    },
    {
      method: 'GET',
      path: '/_security/enroll/node',
      action: `${A}/node`,
      handler(req) {
        checkParams(req, []);
        throw notImplemented('node enrollment (it needs TLS on the transport between nodes)');
      },
    },
  ];
}
