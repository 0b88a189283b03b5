/**
 * The bodies of `PUT /_security/user/{username}` and `…/_password` (PutUserRequestBuilder and
 * ChangePasswordRequestBuilder): known fields with their types, anything else a 400.
 */
import { parseException } from '@shoal/protocol';

export interface PutUserBody {
  username?: string;
  password?: string;
  passwordHash?: string;
  roles?: string[];
  fullName?: string | null;
  email?: string | null;
  metadata?: Record<string, unknown>;
  enabled?: boolean;
}

function stringOrNull(field: string, v: unknown): string | null {
  if (v === null || typeof v === 'string') return v;
  throw parseException(`expected field [${field}] to be of type string, but found [${typeof v}] instead`);
}

function string(field: string, v: unknown): string {
  if (typeof v === 'string') return v;
  throw parseException(`expected field [${field}] to be of type string, but found [${typeof v}] instead`);
}

export function parsePutUserBody(username: string, body: Record<string, unknown>): PutUserBody {
  const out: PutUserBody = {};
  for (const [k, v] of Object.entries(body)) {
    switch (k) {
      case 'username':
        out.username = string(k, v);
        break;
      case 'password':
        out.password = string(k, v);
        break;
      case 'password_hash':
        out.passwordHash = string(k, v);
        break;
      case 'roles':
        if (typeof v === 'string') out.roles = [v];
        else if (Array.isArray(v) && v.every((r) => typeof r === 'string')) out.roles = v as string[];
        else
          throw parseException(
            `expected field [roles] to be of type array of strings, but found [${typeof v}] instead`,
          );
        break;
      case 'full_name':
        out.fullName = stringOrNull(k, v);
        break;
      case 'email':
        out.email = stringOrNull(k, v);
        break;
      case 'metadata':
        if (typeof v !== 'object' || v === null || Array.isArray(v)) {
          throw parseException(
            `expected field [metadata] to be of type object, but found [${typeof v}] instead`,
          );
        }
        out.metadata = v as Record<string, unknown>;
        break;
      case 'enabled':
        if (typeof v !== 'boolean') {
          throw parseException(
            `expected field [enabled] to be of type boolean, but found [${typeof v}] instead`,
          );
        }
        out.enabled = v;
        break;
      default:
        throw parseException(`failed to parse add user request. unexpected field [${k}]`);
    }
  }
  if (out.username !== undefined && out.username !== username) {
    throw parseException(
      `failed to parse add user request. username in body [${out.username}] does not match path [${username}]`,
    );
  }
  return out;
}

export function parseChangePasswordBody(body: Record<string, unknown>): {
  password?: string;
  passwordHash?: string;
} {
  const out: { password?: string; passwordHash?: string } = {};
  for (const [k, v] of Object.entries(body)) {
    if (k === 'password') out.password = string(k, v);
    else if (k === 'password_hash') out.passwordHash = string(k, v);
    else throw parseException(`failed to parse change password request. unexpected field [${k}]`);
  }
  return out;
}
