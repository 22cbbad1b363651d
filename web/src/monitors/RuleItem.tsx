import { useId, useState } from 'react';
import { api, ok } from '../api';
import { Badge } from '../components/Badge';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { DriftWarning, type ManagedResource, useDriftConfirm } from '../components/DriftWarning';
import { ManagedBadge } from '../components/ManagedBadge';
import { ProblemAlert } from '../components/ProblemAlert';
import type { AlertDestination, AlertRule } from '../types';
import { incident, RULE_TITLE, ruleSentence, STATE } from './rule-text';

/** A rule's key as plans name it: its monitor's key and its own, `shop/down`. */
const ruleKey = (monitorKey: string | null, rule: AlertRule) =>
  rule.declaration_key === null || monitorKey === null ? rule.declaration_key : `${monitorKey}/${rule.declaration_key}`;

export function RuleItem({
  rule,
  monitorKey,
  named,
  mayWrite,
  onChanged,
  onDeleted,
}: {
  rule: AlertRule;
  /** The declaration key of the rule's monitor (a managed rule's key is its monitor's and its own). */
  monitorKey: string | null;
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
  const drift = useDriftConfirm();
  const managed: ManagedResource = { noun: 'alert rule', declarationKey: ruleKey(monitorKey, rule) };

  function toggle() {
    const verb = rule.enabled ? 'Disable' : 'Enable';
    drift.confirm(
      managed,
      { title: `${verb} the “${title}” rule by hand?`, confirmLabel: `${verb} anyway` },
      () => void setEnabled(),
    );
  }

  async function setEnabled() {
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
            <ManagedBadge declarationKey={managed.declarationKey} />
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
          <button type="button" className="button button-small button-secondary" disabled={busy} onClick={toggle}>
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
            <DriftWarning resource={managed} deleting />
            <p>It stops at once, and a firing alert sends no recovery. To pause it instead, disable it.</p>
          </ConfirmDialog>
        ) : null}
        <ProblemAlert error={error} title={`The “${title}” rule was not ${rule.enabled ? 'disabled' : 'enabled'}`} />
        {drift.dialog}
      </article>
    </li>
  );
}
