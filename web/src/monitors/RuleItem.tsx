import { useId, useState } from 'react';
import { api, ok } from '../api';
import { Badge } from '../components/Badge';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ProblemAlert } from '../components/ProblemAlert';
import type { AlertDestination, AlertRule } from '../types';
import { incident, RULE_TITLE, ruleSentence, STATE } from './rule-text';

export function RuleItem({
  rule,
  named,
  mayWrite,
  onChanged,
  onDeleted,
}: {
  rule: AlertRule;
  named: Map<string, AlertDestination>;
  mayWrite: boolean;
  onChanged: (rule: AlertRule, note: string) => void;
  onDeleted: (note: string) => void;
}) {
  const headingId = useId();
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const title = RULE_TITLE[rule.event];

  async function toggle() {
    setBusy(true);
    setError(null);
    try {
      const updated = await ok(
        api.PATCH('/monitors/{id}/rules/{rule_id}', {
          params: { path: { id: rule.monitor_id, rule_id: rule.id } },
          body: { enabled: !rule.enabled },
        }),
      );
      onChanged(
        updated,
        updated.enabled
          ? `Enabled the “${title}” rule: it sends alerts again.`
          : `Disabled the “${title}” rule: it sends nothing until it is enabled again.`,
      );
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="rule" data-rule-id={rule.id}>
      <article aria-labelledby={headingId}>
        <div className="destination-head">
          <h3 id={headingId}>{title}</h3>
          <p className="check-badges">
            {rule.enabled ? (
              incident(rule.event) ? (
                <Badge tone={STATE[rule.state].tone}>
                  <span className="visually-hidden">State: </span>
                  {STATE[rule.state].label}
                </Badge>
              ) : (
                <Badge tone="success">Enabled</Badge>
              )
            ) : (
              <Badge tone="neutral">Disabled</Badge>
            )}
          </p>
        </div>
        <p>{ruleSentence(rule)}</p>
        <p className="small">
          Sends to:{' '}
          {rule.destination_ids
            .map((destinationId) => named.get(destinationId)?.name ?? 'a destination no longer listed')
            .join(', ')}
        </p>
        {mayWrite ? (
          <button
            type="button"
            className="button button-small button-secondary"
            disabled={busy}
            onClick={() => void toggle()}
          >
            {busy ? 'Saving…' : rule.enabled ? 'Disable' : 'Enable'}
            <span className="visually-hidden"> the “{title}” rule</span>
          </button>
        ) : null}
        {mayWrite ? (
          <button type="button" className="button button-small button-danger-outline" onClick={() => setDeleting(true)}>
            Delete<span className="visually-hidden"> the “{title}” rule</span>
          </button>
        ) : null}
        {deleting ? (
          <ConfirmDialog
            title={`Delete the “${title}” rule?`}
            confirmLabel="Delete rule"
            busyLabel="Deleting…"
            onConfirm={async () => {
              await ok(
                api.DELETE('/monitors/{id}/rules/{rule_id}', {
                  params: { path: { id: rule.monitor_id, rule_id: rule.id } },
                }),
              );
              setDeleting(false);
              onDeleted(`Deleted the “${title}” rule. What it sent stays in the delivery log.`);
            }}
            onClose={() => setDeleting(false)}
          >
            <p>It stops at once, and a firing alert sends no recovery. To pause it instead, disable it.</p>
          </ConfirmDialog>
        ) : null}
        <ProblemAlert error={error} title={`The “${title}” rule was not ${rule.enabled ? 'disabled' : 'enabled'}`} />
      </article>
    </li>
  );
}
