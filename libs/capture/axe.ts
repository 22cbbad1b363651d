import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { AXE_TAGS, type AxeFinding } from './types';

/**
 * The global axe is kept under once loaded: a page may define its own `window.axe`, and it cannot guess this name
 * (new in every process) to put a fake scanner in its place.
 */
const AXE_GLOBAL = `__vigilAxe_${randomBytes(8).toString('hex')}`;

let cachedSource: string | null = null;

/** axe-core's minified build (about half the size of `axe.source`), which then stores itself under AXE_GLOBAL. */
function axeSource(): string {
  cachedSource ??= `${readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')}
;if (!Object.hasOwn(window, ${JSON.stringify(AXE_GLOBAL)})) {
  Object.defineProperty(window, ${JSON.stringify(AXE_GLOBAL)}, { value: window.axe, configurable: false });
}`;
  return cachedSource;
}

/**
 * Loads axe-core into every frame of the page, once it has been read and photographed: only the page being scanned
 * pays for parsing it (an init script would run it in every document, blank and frames included, before load).
 * The main frame gets it straight through the DevTools protocol, about 50 ms cheaper than Playwright's evaluate
 * (which passes the source through its own script and `eval`); evaluation this way is not subject to the page's
 * CSP. Frames that went away meanwhile are skipped; axe descends only into frames that have it.
 */
async function loadAxe(page: Page): Promise<void> {
  const session = await page.context().newCDPSession(page);
  try {
    const { exceptionDetails } = await session.send('Runtime.evaluate', { expression: axeSource(), silent: true });
    if (exceptionDetails) {
      throw new Error(
        `axe-core could not be loaded: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`,
      );
    }
  } finally {
    await session.detach().catch(() => undefined);
  }
  const main = page.mainFrame();
  await Promise.all(
    page
      .frames()
      .filter((frame) => frame !== main)
      .map((frame) => frame.evaluate(axeSource()).catch(() => undefined)),
  );
}

/** What the page hands back: only the fields the findings need, to keep the transfer small. */
interface AxeScan {
  version: string;
  violations: Array<{
    id: string;
    impact: string | null;
    help: string;
    helpUrl: string;
    nodes: Array<{ target: unknown[]; impact: string | null }>;
  }>;
}

export interface AxeReport {
  version: string;
  findings: AxeFinding[];
}

/** Loads axe into the page and runs it on the page's document and its frames. */
export async function runAxe(page: Page): Promise<AxeReport> {
  await loadAxe(page);
  const scan = await page.evaluate(
    async ({ globalName, tags }): Promise<AxeScan> => {
      const axe = (window as unknown as Record<string, typeof import('axe-core') | undefined>)[globalName];
      if (!axe) throw new Error('axe-core is not loaded in the page');
      const result = await axe.run(document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      });
      return {
        version: result.testEngine.version,
        violations: result.violations.map((violation) => ({
          id: violation.id,
          impact: violation.impact ?? null,
          help: violation.help,
          helpUrl: violation.helpUrl,
          nodes: violation.nodes.map((node) => ({ target: node.target, impact: node.impact ?? null })),
        })),
      };
    },
    { globalName: AXE_GLOBAL, tags: [...AXE_TAGS] },
  );
  return { version: scan.version, findings: flattenViolations(scan.violations) };
}

const IMPACTS = new Set(['minor', 'moderate', 'serious', 'critical']);

/** One finding per (rule, node); a node's own impact wins over the rule's (the rule's is the worst of its nodes). */
export function flattenViolations(violations: AxeScan['violations']): AxeFinding[] {
  return violations.flatMap((violation) =>
    violation.nodes.map((node) => ({
      rule_id: violation.id,
      impact: toImpact(node.impact ?? violation.impact),
      help: violation.help,
      help_url: violation.helpUrl,
      target: flattenTarget(node.target),
    })),
  );
}

/** axe targets nest arrays for iframes and shadow roots: ['iframe', ['#host', '.inside']] → 'iframe #host .inside'. */
function flattenTarget(target: unknown[]): string {
  return target
    .flat(Infinity)
    .map((part) => String(part))
    .join(' ');
}

function toImpact(impact: string | null): AxeFinding['impact'] {
  return impact !== null && IMPACTS.has(impact) ? (impact as AxeFinding['impact']) : null;
}
