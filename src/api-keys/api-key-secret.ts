import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 32 random bytes need at most 43 base-62 digits. */
const SECRET_DIGITS = 43;
export const KEY_PREFIX_LENGTH = 8;
const SECRET_PATTERN = /^vgl_[0-9A-Za-z]{43}$/;

function base62(bytes: Buffer, digits: number): string {
  let value = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  for (let index = 0; index < digits; index += 1) {
    out = BASE62[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out;
}

export interface GeneratedSecret {
  secret: string;
  prefix: string;
  hash: string;
}

/** A new key: `vgl_` + 32 random bytes in base 62. Only its hash and a short prefix are ever stored. */
export function generateSecret(): GeneratedSecret {
  const random = base62(randomBytes(32), SECRET_DIGITS);
  const secret = `vgl_${random}`;
  return { secret, prefix: random.slice(0, KEY_PREFIX_LENGTH), hash: hashSecret(secret) };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Cheap shape check, so malformed keys are refused without touching the database. */
export function looksLikeSecret(candidate: string): boolean {
  return SECRET_PATTERN.test(candidate);
}
