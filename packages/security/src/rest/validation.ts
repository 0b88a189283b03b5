/** Name rules of the user and role APIs (Elasticsearch's Validation.Users / Validation.Roles). */

const MAX_NAME_LENGTH = 507;
export const MIN_PASSWORD_LENGTH = 6;

/** Printable Basic Latin, no leading or trailing whitespace, 1 to 507 characters. */
function validName(name: string): boolean {
  if (name.length < 1 || name.length > MAX_NAME_LENGTH) return false;
  if (name.trim() !== name) return false;
  return /^[\x20-\x7e]+$/.test(name);
}

export function usernameError(name: string): string | undefined {
  if (validName(name)) return undefined;
  return (
    `Usernames must be at least 1 and no more than ${MAX_NAME_LENGTH} characters. ` +
    'They can contain alphanumeric characters (a-z, A-Z, 0-9), spaces, punctuation, and printable symbols ' +
    'in the Basic Latin (ASCII) block. Leading or trailing whitespace is not allowed.'
  );
}

export function roleNameError(name: string): string | undefined {
  if (validName(name)) return undefined;
  return (
    `Role names must be at least 1 and no more than ${MAX_NAME_LENGTH} characters. ` +
    'They can contain alphanumeric characters (a-z, A-Z, 0-9), spaces, punctuation, and printable symbols ' +
    'in the Basic Latin (ASCII) block. Leading or trailing whitespace is not allowed.'
  );
}

export function passwordError(password: string): string | undefined {
  return password.length < MIN_PASSWORD_LENGTH
    ? `passwords must be at least [${MIN_PASSWORD_LENGTH}] characters long`
    : undefined;
}
