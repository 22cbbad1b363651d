/**
 * Decodes by byte order mark, then the Content-Type charset, then (for markup) a <meta> charset in the first 1024
 * bytes as browsers do, else UTF-8. Unknown labels fall back to UTF-8; undecodable bytes become U+FFFD.
 */
export function decodeBody(bytes: Uint8Array, contentType: string | null, markup: boolean): string {
  const label =
    bomCharset(bytes) ??
    /charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType ?? '')?.[1] ??
    (markup ? metaCharset(bytes) : undefined) ??
    'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(bytes);
}

function bomCharset(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

function metaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1];
}
