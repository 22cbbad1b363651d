import { readFileSync } from 'node:fs';
import type { CDPSession, Page } from 'playwright-core';
import { AXE_TAGS, type AxeFinding } from './types';

/** The isolated world axe-core runs in: it shares the page's DOM, not its globals, and the page's CSP does not apply. */
const AXE_WORLD = 'vigil-axe';

let cachedSource: string | null = null;

/**
 * axe-core's minified build (about half the size of `axe.source`), configured without HTML snippets: findings need
 * none, and serializing every node it reports is about a tenth of a scan.
 */
function axeSource(): string {
  cachedSource ??= `${readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')}
;axe.configure({ noHtml: true });`;
  return cachedSource;
}

/** What the page hands back: only the fields the findings need, to keep the transfer small. */
type AxeRuleResults = Array<{
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: Array<{ target: unknown[]; impact: string | null }>;
}>;

interface AxeScan {
  version: string;
  violations: AxeRuleResults;
  incomplete: AxeRuleResults;
  rules: string[];
}

export interface AxeReport {
  version: string;
  /** Violations. */
  findings: AxeFinding[];
  /** What axe-core could not decide ("needs review"). */
  needs_review: AxeFinding[];
  /** Every rule that ran, whatever its outcome. */
  rules: string[];
}

/** Runs in the isolated world, where `axe` is the one loaded there. */
const RUN_SCAN = `(async () => {
  const result = await axe.run(document, {
    runOnly: { type: 'tag', values: ${JSON.stringify(AXE_TAGS)} },
    resultTypes: ['violations', 'incomplete'],
  });
  const slim = (rules) => rules.map((rule) => ({
    id: rule.id,
    impact: rule.impact ?? null,
    help: rule.help,
    helpUrl: rule.helpUrl,
    nodes: rule.nodes.map((node) => ({ target: node.target, impact: node.impact ?? null })),
  }));
  const ran = [result.violations, result.incomplete, result.passes, result.inapplicable];
  return {
    version: result.testEngine.version,
    violations: slim(result.violations),
    incomplete: slim(result.incomplete),
    rules: [...new Set(ran.flat().map((rule) => rule.id))].sort(),
  };
})()`;

/** axe-core being loaded into a page's main frame, ready to scan it once the page has been photographed. */
export interface PreparedAxe {
  /** Scans the page's document and its frames. */
  scan(): Promise<AxeReport>;
  /** Lets go of the DevTools session (closing the page does too). */
  dispose(): void;
}

/**
 * Starts loading axe-core into an isolated world of the page's main frame, through the DevTools protocol, so the
 * load (compiling 650 KB, a third of the scan's cost) overlaps the wait for the network to settle. Nothing the page
 * can see changes: its globals (its own `axe`, an AMD `define`) stay its own, and it cannot reach or replace ours.
 * A failed load surfaces in `scan()`.
 */
export function prepareAxe(page: Page): PreparedAxe {
  const session = page.context().newCDPSession(page);
  const loaded = session.then(loadInto);
  // Both are awaited by scan(), or never needed.
  session.catch(() => undefined);
  loaded.catch(() => undefined);
  return {
    scan: () => scan(page, session, loaded),
    dispose: () => {
      session.then((opened) => opened.detach()).catch(() => undefined);
    },
  };
}

/** Loads axe-core into a new isolated world of the main frame's current document; its execution context id. */
async function loadInto(session: CDPSession): Promise<number> {
  const { frameTree } = await session.send('Page.getFrameTree');
  const { executionContextId } = await session.send('Page.createIsolatedWorld', {
    frameId: frameTree.frame.id,
    worldName: AXE_WORLD,
  });
  const { exceptionDetails } = await session.send('Runtime.evaluate', {
    expression: axeSource(),
    contextId: executionContextId,
    silent: true,
  });
  if (exceptionDetails) {
    throw new Error(
      `axe-core could not be loaded: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`,
    );
  }
  return executionContextId;
}

async function scan(page: Page, session: Promise<CDPSession>, loaded: Promise<number>): Promise<AxeReport> {
  const opened = await session;
  await loadIntoChildFrames(page);
  const contextId = await loaded.catch(() => null);
  let result: AxeScan | null = null;
  try {
    if (contextId !== null) result = await runScan(opened, contextId);
  } catch (error) {
    if (error instanceof AxeScanError) throw error;
  }
  // The world went with its document (the page navigated itself while settling): load into the current one.
  result ??= await runScan(opened, await loadInto(opened));
  return {
    version: result.version,
    findings: flattenResults(result.violations),
    needs_review: flattenResults(result.incomplete),
    rules: result.rules,
  };
}

/** axe-core itself threw, as opposed to the protocol failing to reach its world. */
class AxeScanError extends Error {
  override readonly name = 'AxeScanError';
}

async function runScan(session: CDPSession, contextId: number): Promise<AxeScan> {
  const { result, exceptionDetails } = await session.send('Runtime.evaluate', {
    expression: RUN_SCAN,
    contextId,
    awaitPromise: true,
    returnByValue: true,
  });
  if (exceptionDetails) {
    throw new AxeScanError(`axe-core failed: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
  }
  return result.value as AxeScan;
}

/**
 * Child frames get axe-core in their own page context (Playwright reaches frames in other processes too), after
 * the screenshot; the main frame's axe asks them for their results. Frames that went away meanwhile are skipped.
 */
async function loadIntoChildFrames(page: Page): Promise<void> {
  const main = page.mainFrame();
  await Promise.all(
    page
      .frames()
      .filter((frame) => frame !== main)
      .map((frame) => frame.evaluate(axeSource()).catch(() => undefined)),
  );
}

const IMPACTS = new Set(['minor', 'moderate', 'serious', 'critical']);

/** One finding per (rule, node); a node's own impact wins over the rule's (the rule's is the worst of its nodes). */
export function flattenResults(violations: AxeRuleResults): AxeFinding[] {
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
