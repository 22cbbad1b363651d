import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { AXE_TAGS, type AxeFinding } from './types';

/** The name the init script keeps axe under, so a page that defines its own `window.axe` cannot displace ours. */
const AXE_GLOBAL = '__vigilAxe';

let cachedInitScript: string | null = null;

/**
 * Script for `context.addInitScript`: axe-core's minified build (about half the size of `axe.source`), stored
 * under AXE_GLOBAL. Init scripts run before the page's own scripts and are not subject to its CSP.
 */
export function axeInitScript(): string {
  cachedInitScript ??= `${readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')}
;Object.defineProperty(window, ${JSON.stringify(AXE_GLOBAL)}, { value: window.axe, configurable: false });`;
  return cachedInitScript;
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

/** Runs axe on the page's document (axe itself descends into iframes that have it loaded). */
export async function runAxe(page: Page): Promise<AxeReport> {
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
