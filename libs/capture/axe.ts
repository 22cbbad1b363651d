import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { InPageError, isStaleContext, type PageWorld } from './page-world';
import { AXE_TAGS, type AxeFinding } from './types';

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

/**
 * axe-core in the capture's isolated world of a page's main frame (see PageWorld): nothing the page can see changes,
 * its globals (its own `axe`, an AMD `define`) stay its own, and it cannot reach or replace ours. `preload` starts
 * loading it through the DevTools protocol, so compiling 650 KB (a third of the scan's cost) overlaps the wait for
 * the network to settle; `scan` loads it then if nobody did, and again if the page replaced its document meanwhile.
 */
export class AxeRunner {
  private loaded: Promise<number> | null = null;

  constructor(
    private readonly page: Page,
    private readonly world: PageWorld,
  ) {}

  /** Starts loading axe-core into the world; a failed load surfaces in `scan()`. */
  preload(): void {
    if (this.loaded) return;
    this.loaded = this.world.contextId().then((id) => this.loadInto(id));
    this.loaded.catch(() => undefined);
  }

  /** Scans the page's document and its frames. */
  async scan(): Promise<AxeReport> {
    await loadIntoChildFrames(this.page);
    const result = await this.scanMainFrame();
    return {
      version: result.version,
      findings: flattenResults(result.violations),
      needs_review: flattenResults(result.incomplete),
      rules: result.rules,
    };
  }

  private async scanMainFrame(): Promise<AxeScan> {
    let loadedInto = this.loaded ? await this.loaded.catch(() => null) : null;
    for (let attempt = 1; ; attempt++) {
      const id = loadedInto ?? (await this.world.contextId());
      try {
        if (loadedInto === null) await this.loadInto(id);
        return await this.runScan(id);
      } catch (error) {
        // The world went with its document (the page navigated itself while settling): load into the current one.
        if (attempt >= 2 || !isStaleContext(error)) throw error;
        this.world.forget(id);
        loadedInto = null;
      }
    }
  }

  /** Loads axe-core into the world's context `id`. */
  private async loadInto(id: number): Promise<number> {
    try {
      await this.world.run(axeSource(), id);
    } catch (error) {
      if (error instanceof InPageError) throw new Error(`axe-core could not be loaded: ${error.message}`);
      throw error;
    }
    return id;
  }

  private async runScan(id: number): Promise<AxeScan> {
    try {
      return await this.world.run<AxeScan>(RUN_SCAN, id);
    } catch (error) {
      if (error instanceof InPageError) throw new Error(`axe-core failed: ${error.message}`);
      throw error;
    }
  }
}

/**
 * Child frames get axe-core in their own page context (Playwright reaches frames in other processes too), after
 * the screenshot; the main frame's axe asks them for their results. Frames that went away meanwhile are skipped.
 */
async function loadIntoChildFrames(page: Page): Promise<void> {
  const main = page.mainFrame();
  const children = page.frames().filter((frame) => frame !== main);
  if (children.length === 0) return;
  // axe-core in a frame's page context runs on that page's timers, which the capture's virtual clock holds
  // (determinism.ts): it would wait forever for its own timeouts. The screenshot is taken; let time run again.
  await page.clock.resume().catch(() => undefined);
  await Promise.all(children.map((frame) => frame.evaluate(axeSource()).catch(() => undefined)));
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
