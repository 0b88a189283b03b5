/** Shoal's identity, as it appears in `Warning` headers and `GET /`. */
export const SHOAL_VERSION = '0.1.0';

/**
 * The build hash: the launcher may pass the git commit in SHOAL_BUILD_HASH (7 or 40 hex
 * digits); otherwise `unknown`, which Elasticsearch's own Warning-header pattern also accepts.
 */
export const SHOAL_BUILD_HASH: string = buildHash(process.env.SHOAL_BUILD_HASH);

function buildHash(env: string | undefined): string {
  return env !== undefined && /^[a-f0-9]{7}(?:[a-f0-9]{33})?$/.test(env) ? env : 'unknown';
}
