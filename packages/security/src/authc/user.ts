/** A user as the realms know it and as the user APIs write it (Elasticsearch's `User`). */
export interface User {
  username: string;
  roles: string[];
  fullName: string | null;
  email: string | null;
  metadata: Record<string, unknown>;
  enabled: boolean;
}

/** The wire form: `{username, roles, full_name, email, metadata, enabled}`. */
export function userJson(u: User): Record<string, unknown> {
  return {
    username: u.username,
    roles: u.roles,
    full_name: u.fullName,
    email: u.email,
    metadata: u.metadata,
    enabled: u.enabled,
  };
}
