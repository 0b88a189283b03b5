/**
 * The credentials the scripts send to a node: the built-in `elastic` user with
 * `ELASTIC_PASSWORD` (the password the node was first started with). Nodes that a script starts
 * itself get `SCRIPT_PASSWORD` as their ELASTIC_PASSWORD.
 */
export const SCRIPT_PASSWORD = process.env.ELASTIC_PASSWORD || 'shoal-local-password';

export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

const AUTHORIZATION = basicAuthorization('elastic', SCRIPT_PASSWORD);

/** `headers` with the `elastic` user's Authorization added. */
export function withAuth(headers: Record<string, string> = {}): Record<string, string> {
  return { authorization: AUTHORIZATION, ...headers };
}
