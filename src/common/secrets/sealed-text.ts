import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/*
 * Text sealed with AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>` (base64 parts). `boundTo`, when given, is authenticated
 * with it (GCM's additional data): text sealed for one row cannot be opened as another's.
 */

export function sealText(key: Buffer, text: string, boundTo?: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (boundTo !== undefined) cipher.setAAD(Buffer.from(boundTo, 'utf8'));
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64')))
    .join('.');
}

export function openText(key: Buffer, sealed: string, boundTo?: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1') throw new Error(`unknown sealed text version ${version}`);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  if (boundTo !== undefined) decipher.setAAD(Buffer.from(boundTo, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
}
