/** Shared helpers for the mapping tests. */
import { isShoalError, type ShoalError } from '@shoal/protocol';

export function thrown(fn: () => unknown): ShoalError {
  try {
    fn();
  } catch (e) {
    if (isShoalError(e)) return e;
    throw e;
  }
  throw new Error('expected a ShoalError');
}

const enc = new TextEncoder();
export const bytes = (v: unknown): Uint8Array => enc.encode(typeof v === 'string' ? v : JSON.stringify(v));
