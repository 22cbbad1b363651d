import { useId, useState } from 'react';
import { useItemAction } from '../hooks/useItemAction';
import { api, ok } from '../api';
import { DESTINATION_TYPE_LABEL, destinationTarget, EVENT_LABEL, TestResultView } from '../components/AlertBits';
import { Badge } from '../components/Badge';
import { useDriftConfirm } from '../components/DriftWarning';
import { ManagedBadge } from '../components/ManagedBadge';
import { ProblemAlert } from '../components/ProblemAlert';
import { formatDateTime } from '../format';
import { Link, withQuery } from '../router';
import type { AlertDestination, DestinationTestResult } from '../types';

export function DestinationItem({
  destination,
  mayWrite,
  onChanged,
  onRotate,
  onDelete,
}: {
  destination: AlertDestination;
  mayWrite: boolean;
  onChanged: (destination: AlertDestination, note: string) => void;
  onRotate: () => void;
  onDelete: () => void;
}) {
  const headingId = useId();
  const { busy, error, run } = useItemAction<'test' | 'toggle'>();
  const [result, setResult] = useState<DestinationTestResult | null>(null);
  const { id, name } = destination;
  const drift = useDriftConfirm();

  const test = () =>
    run('test', `The test ping to “${name}” could not be sent`, async () => {
      setResult(null);
      setResult(await ok(api.POST('/alert-destinations/{id}/test', { params: { path: { id } } })));
    });

  const setEnabled = () =>
    run('toggle', `“${name}” was not ${destination.enabled ? 'disabled' : 'enabled'}`, async () => {
      const updated = await ok(
        api.PATCH('/alert-destinations/{id}', { params: { path: { id } }, body: { enabled: !destination.enabled } }),
      );
      onChanged(
        updated,
        updated.enabled
          ? `Enabled “${updated.name}”: alerts are sent to it again.`
          : `Disabled “${updated.name}”: nothing is sent to it until it is enabled again.`,
      );
    });

  const toggle = () => {
    const verb = destination.enabled ? 'Disable' : 'Enable';
    drift.confirm(
      { noun: 'alert destination', declarationKey: destination.declaration_key },
      { title: `${verb} “${name}” by hand?`, confirmLabel: `${verb} anyway` },
      () => void setEnabled(),
    );
  };

  return (
    <li className="destination" data-destination-id={id}>
      <article aria-labelledby={headingId}>
        <div className="destination-head">
          <h3 id={headingId}>{name}</h3>
          <p className="check-badges">
            <Badge tone="neutral">{DESTINATION_TYPE_LABEL[destination.type]}</Badge>
            {destination.enabled ? <Badge tone="success">Enabled</Badge> : <Badge tone="warning">Disabled</Badge>}
            <ManagedBadge declarationKey={destination.declaration_key} />
          </p>
        </div>
        {destination.disabled_reason ? (
          <p className="alert alert-warning">
            Vigil disabled it: {destination.disabled_reason}. Enable it again once the receiver accepts deliveries.
          </p>
        ) : null}
        <dl className="meta-grid destination-facts">
          <div>
            <dt>Sends to</dt>
            <dd className="url">{destinationTarget(destination)}</dd>
          </div>
          <div>
            <dt>Workspace events</dt>
            <dd>
              {destination.events.length
                ? destination.events.map((event) => EVENT_LABEL[event]).join(', ')
                : 'None: only what rules send'}
            </dd>
          </div>
          <div>
            <dt>Added</dt>
            <dd>{formatDateTime(destination.created_at)}</dd>
          </div>
        </dl>
        <div className="button-row">
          {mayWrite ? (
            <>
              <button
                type="button"
                className="button button-small button-secondary"
                disabled={busy !== null}
                onClick={() => void test()}
              >
                {busy === 'test' ? 'Sending test…' : 'Send test'}
                <span className="visually-hidden"> to {name}</span>
              </button>
              <button
                type="button"
                className="button button-small button-secondary"
                disabled={busy !== null}
                onClick={toggle}
              >
                {busy === 'toggle' ? 'Saving…' : destination.enabled ? 'Disable' : 'Enable'}
                <span className="visually-hidden"> {name}</span>
              </button>
              {destination.type === 'webhook' ? (
                <button type="button" className="button button-small button-secondary" onClick={onRotate}>
                  Rotate secret<span className="visually-hidden"> of {name}</span>
                </button>
              ) : null}
            </>
          ) : null}
          <Link
            to={withQuery('/alerts/deliveries', { destination: id })}
            className="button button-small button-secondary"
          >
            Deliveries<span className="visually-hidden"> to {name}</span>
          </Link>
          {mayWrite ? (
            <button type="button" className="button button-small button-danger-outline" onClick={onDelete}>
              Delete<span className="visually-hidden"> {name}</span>
            </button>
          ) : null}
        </div>
        {/* Always there, so the receiver's answer is announced when it arrives. */}
        <div role="status" className="destination-result">
          {result ? <TestResultView name={name} result={result} /> : null}
        </div>
        {error ? <ProblemAlert error={error.error} title={error.title} /> : null}
        {drift.dialog}
      </article>
    </li>
  );
}
