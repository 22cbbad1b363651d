import { createHash } from 'node:crypto';
import { load, type CheerioAPI } from 'cheerio';
import { parseNumber, parsePrice } from './numbers';
import type {
  DocumentMetadata,
  ExtractedContent,
  ExtractOptions,
  TrackedValueReading,
  TrackedValueSpec,
} from './types';

/** The parts of a parsed DOM node (domhandler) the text walk needs. */
interface DomNode {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: DomNode[];
  parent?: DomNode | null;
}

/** Never rendered as text. */
const EXCLUDED_ELEMENTS = new Set(['script', 'style', 'noscript', 'template', 'head']);

/** Elements that start and end a line, as a browser lays them out by default. */
const BLOCK_ELEMENTS = new Set(
  (
    'address article aside blockquote body caption dd details dialog div dl dt fieldset figcaption figure ' +
    'footer form h1 h2 h3 h4 h5 h6 header hgroup hr html legend li main menu nav ol option p pre section ' +
    'summary table tbody tfoot thead title tr ul'
  ).split(' '),
);

/** Table cells share their row's line; they are kept apart by a space so "a" | "b" does not read "ab". */
const CELL_ELEMENTS = new Set(['td', 'th']);

function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Collapses whitespace runs (including NBSP) to one space and trims, so layout-only changes do not alter text. */
function collapseWhitespace(line: string): string {
  return line.replace(/\s+/g, ' ').trim();
}

/** Builds normalized lines from a stream of text pieces and line breaks. */
class LineBuilder {
  readonly lines: string[] = [];
  private current = '';

  append(text: string): void {
    this.current += text;
  }

  /** A space between pieces on the same line; whitespace collapsing later removes doubles. */
  separate(): void {
    if (this.current !== '') this.current += ' ';
  }

  breakLine(): void {
    const line = collapseWhitespace(this.current);
    if (line !== '') this.lines.push(line);
    this.current = '';
  }
}

/** Walks the subtree iteratively: real pages nest deeply enough to make recursion risky. */
function appendVisibleText(root: DomNode, builder: LineBuilder): void {
  // An exit step closes a block element once its children are done.
  const stack: { node: DomNode; exit: boolean }[] = [{ node: root, exit: false }];
  let preDepth = 0;
  while (stack.length > 0) {
    const step = stack.pop()!;
    const { node } = step;
    const name = node.name?.toLowerCase();
    if (step.exit) {
      if (name === 'pre') preDepth -= 1;
      builder.breakLine();
      continue;
    }
    if (node.type === 'text') {
      const data = node.data ?? '';
      if (preDepth > 0) {
        // Preformatted text keeps its own line breaks.
        data.split(/\r\n|\r|\n/).forEach((segment, index) => {
          if (index > 0) builder.breakLine();
          builder.append(segment);
        });
      } else {
        builder.append(data);
      }
      continue;
    }
    if (node.children === undefined) continue; // comments, directives
    if (name !== undefined) {
      if (EXCLUDED_ELEMENTS.has(name) && node !== root) continue;
      // The `hidden` attribute maps to display: none, which a browser does not render as text.
      if (node.attribs?.hidden !== undefined && node !== root) continue;
      if (name === 'br') {
        builder.breakLine();
        continue;
      }
      if (CELL_ELEMENTS.has(name)) builder.separate();
      if (BLOCK_ELEMENTS.has(name)) {
        builder.breakLine();
        if (name === 'pre') preDepth += 1;
        stack.push({ node, exit: true });
      }
    }
    for (let index = node.children.length - 1; index >= 0; index -= 1) {
      stack.push({ node: node.children[index], exit: false });
    }
  }
}

function visibleLines(nodes: DomNode[]): string[] {
  const builder = new LineBuilder();
  for (const node of nodes) {
    appendVisibleText(node, builder);
    builder.breakLine();
  }
  return builder.lines;
}

/** Elements matching `selector`, or null when cheerio cannot compile it. */
function selectAll($: CheerioAPI, selector: string): DomNode[] | null {
  if (!isValidCssSelector(selector)) return null;
  try {
    // root().find never treats the string as HTML to create, unlike $(string).
    return $.root().find(selector).toArray();
  } catch {
    return null;
  }
}

/** Drops matches nested inside other matches, so `div` does not repeat an inner div's text. */
function outermost(nodes: DomNode[]): DomNode[] {
  const matched = new Set(nodes);
  return nodes.filter((node) => {
    for (let parent = node.parent; parent; parent = parent.parent) if (matched.has(parent)) return false;
    return true;
  });
}

let probeDocument: CheerioAPI | undefined;

/**
 * True when cheerio (css-select) can compile `selector`. A selector that is blank or ends in a combinator is refused
 * too: css-select accepts `div >` but the monitor author surely meant something else.
 */
export function isValidCssSelector(selector: string): boolean {
  if (selector.trim() === '' || /[>+~<,]\s*$/.test(selector)) return false;
  // Compiling happens on first use, so run the selector against a small document to surface errors.
  probeDocument ??= load('<html><head></head><body><div><p></p></div></body></html>');
  try {
    probeDocument.root().find(selector);
    return true;
  } catch {
    return false;
  }
}

/** Text of a tracked element on one line; metadata and form elements carry their value in an attribute instead. */
function trackedText(node: DomNode): string {
  const text = visibleLines([node]).join(' ');
  if (text !== '') return text;
  const attribute = node.attribs?.content ?? node.attribs?.value;
  return attribute === undefined ? '' : collapseWhitespace(attribute);
}

function readingFor(spec: TrackedValueSpec, raw: string | null): TrackedValueReading {
  const reading: TrackedValueReading = { name: spec.name, kind: spec.kind, raw, amount: null, currency: null };
  if (raw === null) return reading;
  if (spec.kind === 'price') {
    const price = parsePrice(raw);
    if (price) {
      reading.amount = price.amount;
      reading.currency = price.currency;
    }
  } else if (spec.kind === 'number') {
    reading.amount = parseNumber(raw);
  }
  return reading;
}

/**
 * Visible text, its hash and the tracked values of an HTML document. Shared by the HTTP check and the browser check
 * (on rendered HTML), so both produce the same text for the same markup. Invalid selectors match nothing rather than
 * throw: API validation refuses them up front, and a check must still report on the page.
 */
export function extractContent(html: string, options: ExtractOptions = {}): ExtractedContent {
  const $ = load(html);
  let scope: DomNode[];
  let selectorMatched: boolean | null = null;
  if (options.selector === undefined) {
    // Visible text lives in <body>; head content (title, meta) is not rendered.
    scope = $('body').toArray().slice(0, 1);
    if (scope.length === 0) scope = [$.root()[0]];
  } else {
    scope = outermost(selectAll($, options.selector) ?? []);
    selectorMatched = scope.length > 0;
  }
  const text = visibleLines(scope).join('\n');
  const trackedValues = (options.trackedValues ?? []).map((spec) => {
    const first = selectAll($, spec.selector)?.[0];
    return readingFor(spec, first === undefined ? null : trackedText(first));
  });
  const content = { text, selectorMatched, contentHash: sha256Hex(text), trackedValues, metadata: metadataOf($) };
  if (!options.texts?.length) return content;
  const texts = Object.fromEntries(
    options.texts.map((selector) => {
      const first = selectAll($, selector)?.[0];
      return [selector, first === undefined ? null : trackedText(first)];
    }),
  );
  return { ...content, texts };
}

/** What the document says about itself in its head: title, robots directives, canonical link (as written). */
function metadataOf($: CheerioAPI): DocumentMetadata {
  const attribute = (selector: string, name: string): string | null => {
    const value = $(selector).first().attr(name);
    return value === undefined ? null : collapseWhitespace(value);
  };
  const title = $('title').first();
  return {
    title: title.length ? collapseWhitespace(title.text()) : null,
    robots: attribute('meta[name="robots" i]', 'content'),
    canonical: attribute('link[rel~="canonical" i][href]', 'href'),
  };
}

/** Content of a plain-text body (text/plain, JSON, CSS...): its lines, normalized like HTML text. No element matches. */
export function extractPlainText(body: string, options: ExtractOptions = {}): ExtractedContent {
  const text = body
    .split(/\r\n|\r|\n/)
    .map(collapseWhitespace)
    .filter((line) => line !== '')
    .join('\n');
  return contentWithoutElements(text, sha256Hex(text), options);
}

/** Content of a body that is not text: nothing to read, hashed by its bytes so changes are still noticed. */
export function extractBinary(bytes: Uint8Array, options: ExtractOptions = {}): ExtractedContent {
  return contentWithoutElements('', sha256Hex(bytes), options);
}

function contentWithoutElements(text: string, contentHash: string, options: ExtractOptions): ExtractedContent {
  return {
    text,
    selectorMatched: options.selector === undefined ? null : false,
    contentHash,
    trackedValues: (options.trackedValues ?? []).map((spec) => readingFor(spec, null)),
    metadata: { title: null, robots: null, canonical: null },
  };
}
