/** A place in a declaration: object keys and array indexes from the top. */
export type PathSegments = readonly (string | number)[];

/**
 * A place in a declaration written as the service names it in `errors[].field`: `monitors.shop.url`,
 * `monitors.shop.rules.down.destinations[0]`; `document` for the document itself.
 */
export function documentPath(segments: PathSegments): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else path += path ? `.${segment}` : segment;
  }
  return path || 'document';
}

/** The segments of a path the service names (`monitors.shop.rules.down.destinations[0]`), to find it in the file. */
export function pathSegments(path: string): (string | number)[] {
  const segments: (string | number)[] = [];
  for (const part of path.split('.')) {
    const match = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!match) {
      segments.push(part);
      continue;
    }
    if (match[1]) segments.push(match[1]);
    for (const index of match[2].matchAll(/\[(\d+)\]/g)) segments.push(Number(index[1]));
  }
  return segments;
}
