import { Parser } from 'htmlparser2';

/** What a crawl needs from a page's markup. */
export interface PageMarkup {
  title: string | null;
  /** The canonical link's href as written (resolve it against the page's URL). */
  canonical: string | null;
  /** Every <a>/<area> href, in document order, as written. */
  links: string[];
  /** <base href>, when the page sets one. */
  baseHref: string | null;
  /** Robots meta directives for VigilBot or all robots, lowercased. */
  robots: string[];
}

const TITLE_MAX = 500;

/**
 * Reads a page's title, canonical link, links, base and robots meta with htmlparser2's streaming parser: no DOM is
 * built, so a large page costs one pass and little memory. Malformed markup is read the way browsers recover from it.
 */
export function parsePageMarkup(html: string): PageMarkup {
  const page: PageMarkup = { title: null, canonical: null, links: [], baseHref: null, robots: [] };
  let inTitle = false;
  let inSvg = 0;
  let title = '';
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'svg') inSvg += 1;
        if (name === 'title' && inSvg === 0 && page.title === null) inTitle = true;
        if ((name === 'a' || name === 'area') && attributes.href !== undefined) page.links.push(attributes.href);
        if (name === 'base' && attributes.href !== undefined && page.baseHref === null) page.baseHref = attributes.href;
        if (name === 'link' && page.canonical === null && relIncludes(attributes.rel, 'canonical') && attributes.href) {
          page.canonical = attributes.href;
        }
        if (name === 'meta' && attributes.content !== undefined) {
          const who = (attributes.name ?? '').toLowerCase();
          if (who === 'robots' || who === 'vigilbot') page.robots.push(...directives(attributes.content));
        }
      },
      ontext(text) {
        if (inTitle && title.length < TITLE_MAX) title += text;
      },
      onclosetag(name) {
        if (name === 'svg') inSvg = Math.max(0, inSvg - 1);
        if (name === 'title' && inTitle) {
          inTitle = false;
          page.title = title.replace(/\s+/g, ' ').trim().slice(0, TITLE_MAX) || null;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return page;
}

/** Directives of a robots meta tag or an `X-Robots-Tag` header value (`noindex, nofollow`). */
export function directives(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean);
}

/**
 * The directives of `X-Robots-Tag` header values that apply to VigilBot: unprefixed ones and those prefixed
 * `vigilbot:`; other robots' lines are ignored.
 */
export function headerRobotsDirectives(values: string[]): string[] {
  const found: string[] = [];
  for (const value of values) {
    const prefixed = /^\s*([a-z0-9_-]+)\s*:\s*(.*)$/i.exec(value);
    if (prefixed && !/^(noindex|nofollow|none|all|unavailable_after|max-|noarchive|nosnippet)/i.test(prefixed[1])) {
      if (prefixed[1].toLowerCase() === 'vigilbot') found.push(...directives(prefixed[2]));
    } else {
      found.push(...directives(value));
    }
  }
  return found;
}

function relIncludes(rel: string | undefined, value: string): boolean {
  return (rel ?? '').toLowerCase().split(/\s+/).includes(value);
}
