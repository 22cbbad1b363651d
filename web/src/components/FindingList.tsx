import type { Finding, NewFinding } from '../types';
import { Badge } from './Badge';

const IMPACT_TONE: Record<string, string> = {
  critical: 'danger',
  serious: 'danger',
  moderate: 'warning',
  minor: 'neutral',
};

/** axe-core findings: impact, rule, (viewport,) why a new one is new, the element, and how to fix it. */
export function FindingList({
  findings,
  showViewport = false,
  className = 'findings',
}: {
  findings: (Finding | NewFinding)[];
  /** A release check's findings are shown per viewport already; a scan's are not. */
  showViewport?: boolean;
  className?: string;
}) {
  return (
    <ul className={className}>
      {findings.map((finding) => (
        <li key={finding.fingerprint} className="finding">
          <div className="finding-head">
            <Badge tone={finding.impact ? (IMPACT_TONE[finding.impact] ?? 'neutral') : 'neutral'}>
              {finding.impact ?? 'unknown impact'}
            </Badge>
            <code className="finding-rule">{finding.rule_id}</code>
            {showViewport ? <span className="small muted">{finding.viewport}</span> : null}
            {'cause' in finding ? (
              <Badge tone={finding.cause === 'regression' ? 'danger' : 'info'}>
                {finding.cause === 'regression' ? 'Regression' : 'New rule'}
              </Badge>
            ) : null}
          </div>
          <p className="finding-help">{finding.help}</p>
          <p className="small">
            Element: <code className="value">{finding.target}</code>
          </p>
          <p className="small">
            <a href={finding.help_url} target="_blank" rel="noreferrer noopener">
              How to fix {finding.rule_id}
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          </p>
        </li>
      ))}
    </ul>
  );
}
