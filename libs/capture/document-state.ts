import { createHash } from 'node:crypto';
import type { PageWorld } from './page-world';

/**
 * Digests of a document, for sharing one axe-core scan between documents that must give the same findings (see
 * scan-sharing.ts). axe-core reads the DOM, the style sheets, the layout that follows from them at the viewport, form
 * controls' state, focus, scroll, and the page's address only to tell links to the page itself and style sheets of
 * other origins. The state below holds each of these, or says the document is not eligible (null), and the digest
 * also covers the screenshot's bytes, so whatever the markup does not say about the layout (images, fonts) must
 * also paint the same pixels.
 */

const sha256 = (...parts: Array<string | Buffer>): string => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
};

/** A digest of the document's markup as it is now: cheap, to tell early whether two captures are likely to share. */
export async function markupDigest(world: PageWorld): Promise<string> {
  return sha256(await world.evaluate(markupOf, null));
}

/** A digest of everything axe-core's findings depend on, with the screenshot; null when the page is not eligible. */
export async function stateDigest(world: PageWorld, screenshot: Buffer): Promise<string | null> {
  const state = await world.evaluate(documentState, null);
  return state === null ? null : sha256(state, '\n', screenshot);
}

// The functions below run inside the page (serialized), so they may only use browser globals.

function markupOf(): string {
  return document.documentElement ? document.documentElement.outerHTML : '';
}

/**
 * The document's state as one string, or null when it has parts this does not describe: frames, embedded objects and
 * media (their content and playback state), open shadow roots and custom elements (whose state lives in script), and
 * animations still in effect (their current frame is not in the markup). A closed shadow root on a plain element is
 * hidden from this and from axe-core alike; what it paints is in the screenshot.
 */
function documentState(): string | null {
  const doc = document;
  const root = doc.documentElement;
  if (!root || window.frames.length > 0) return null;
  if (doc.querySelector('iframe, frame, frameset, object, embed, audio, video, portal, fencedframe')) return null;
  const elements = Array.from(doc.getElementsByTagName('*'));
  if (elements.some((element) => element.shadowRoot !== null || element.localName.includes('-'))) return null;
  if (doc.getAnimations().length > 0) return null;

  const here = new URL(doc.URL);
  /** An address as axe-core can tell it apart: this page, this origin, or elsewhere. */
  const relation = (href: string): string => {
    let url: URL;
    try {
      url = new URL(href, doc.baseURI);
    } catch {
      return `invalid:${href}`;
    }
    if (url.origin !== here.origin) return `other:${url.href}`;
    if (url.pathname === here.pathname) return `self:${url.search}${url.hash}`;
    return `origin:${url.pathname}${url.search}${url.hash}`;
  };

  const sheets: string[] = [];
  const addSheet = (sheet: CSSStyleSheet, depth: number): boolean => {
    if (depth > 10) return false;
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch {
      return false; // another origin's sheet: its rules cannot be read, so they cannot be compared
    }
    sheets.push(
      `sheet ${sheet.href === null ? 'inline' : relation(sheet.href)} ${sheet.media.mediaText} ${sheet.disabled}`,
    );
    for (const rule of Array.from(rules)) {
      sheets.push(rule.cssText);
      if (rule instanceof CSSImportRule && rule.styleSheet && !addSheet(rule.styleSheet, depth + 1)) return false;
    }
    return true;
  };
  for (const sheet of [...Array.from(doc.styleSheets), ...doc.adoptedStyleSheets]) {
    if (!addSheet(sheet, 0)) return null;
  }

  const links = Array.from(doc.querySelectorAll('a[href], area[href]'), (link) =>
    relation(link.getAttribute('href') ?? ''),
  );
  const controls = Array.from(doc.querySelectorAll('input, select, textarea'), (control) => {
    if (control instanceof HTMLInputElement) {
      return `${control.value}\u0000${control.checked}\u0000${control.indeterminate}`;
    }
    if (control instanceof HTMLSelectElement) {
      return Array.from(control.options, (option) => (option.selected ? '1' : '0')).join('');
    }
    return (control as HTMLTextAreaElement).value;
  });
  // Web fonts change the layout without changing the markup; a face that failed on one side falls back to another.
  const fonts = Array.from(doc.fonts, (face) => `${face.family} ${face.style} ${face.weight} ${face.status}`);
  const doctype = doc.doctype;
  return JSON.stringify({
    doctype: doctype ? [doctype.name, doctype.publicId, doctype.systemId] : null,
    mode: doc.compatMode,
    markup: root.outerHTML,
    sheets,
    links,
    controls,
    fonts: [doc.fonts.status, ...fonts],
    focus: doc.activeElement ? elements.indexOf(doc.activeElement) : -1,
    viewport: [window.innerWidth, window.innerHeight, window.devicePixelRatio, window.scrollX, window.scrollY],
    visibility: doc.visibilityState,
  });
}
