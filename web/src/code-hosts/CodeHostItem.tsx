import { useId, useState } from 'react';
import { useItemAction } from '../hooks/useItemAction';
import { api, ok } from '../api';
import { Badge } from '../components/Badge';
import { ProblemAlert } from '../components/ProblemAlert';
import { formatDateTime } from '../format';
import { Link, withQuery } from '../router';
import type { CodeHostConnection, CodeHostConnectionTestResult } from '../types';

const PROVIDER_LABEL = { github: 'GitHub', gitlab: 'GitLab' } as const;

/** One connection: what it serves, a test of its credential, enable or disable, its deliveries, delete. */
export function CodeHostItem({
  connection,
  onChanged,
  onDelete,
}: {
  connection: CodeHostConnection;
  onChanged: (connection: CodeHostConnection, note: string) => void;
  onDelete: () => void;
}) {
  const headingId = useId();
  const { busy, error, run } = useItemAction<'test' | 'toggle'>();
  const [result, setResult] = useState<CodeHostConnectionTestResult | null>(null);
  const { id, name } = connection;
  const path = { params: { path: { id } } };

  const test = () =>
    run('test', `“${name}” could not be tested`, async () => {
      setResult(null);
      setResult(await ok(api.POST('/code-host-connections/{id}/test', path)));
    });

  const toggle = () =>
    run('toggle', `“${name}” was not ${connection.enabled ? 'disabled' : 'enabled'}`, async () => {
      const updated = await ok(
        api.PATCH('/code-host-connections/{id}', { ...path, body: { enabled: !connection.enabled } }),
      );
      onChanged(
        updated,
        updated.enabled
          ? `Enabled “${updated.name}”: release checks report to it again.`
          : `Disabled “${updated.name}”: release checks do not report to it until it is enabled again.`,
      );
    });

  return (
    <li className="destination" data-code-host-id={id}>
      <article aria-labelledby={headingId}>
        <div className="destination-head">
          <h3 id={headingId}>{name}</h3>
          <p className="check-badges">
            <Badge tone="neutral">{PROVIDER_LABEL[connection.provider]}</Badge>
            {connection.enabled ? <Badge tone="success">Enabled</Badge> : <Badge tone="warning">Disabled</Badge>}
          </p>
        </div>
        <dl className="meta-grid destination-facts">
          <div>
            <dt>Serves</dt>
            <dd className="url">{connection.namespace}/…</dd>
          </div>
          {connection.provider === 'github' ? (
            <div>
              <dt>App / installation</dt>
              <dd>
                {connection.app_id} / {connection.installation_id}
              </dd>
            </div>
          ) : (
            <div>
              <dt>GitLab</dt>
              <dd className="url">{connection.base_url}</dd>
            </div>
          )}
          <div>
            <dt>Changed</dt>
            <dd>{formatDateTime(connection.updated_at)}</dd>
          </div>
        </dl>
        <div className="button-row">
          <button
            type="button"
            className="button button-small button-secondary"
            disabled={busy !== null}
            onClick={() => void test()}
          >
            {busy === 'test' ? 'Testing…' : 'Test'}
            <span className="visually-hidden"> {name}</span>
          </button>
          <button
            type="button"
            className="button button-small button-secondary"
            disabled={busy !== null}
            onClick={() => void toggle()}
          >
            {busy === 'toggle' ? 'Saving…' : connection.enabled ? 'Disable' : 'Enable'}
            <span className="visually-hidden"> {name}</span>
          </button>
          <Link
            to={withQuery('/alerts/deliveries', { destination: id })}
            className="button button-small button-secondary"
          >
            Deliveries<span className="visually-hidden"> to {name}</span>
          </Link>
          <button type="button" className="button button-small button-danger-outline" onClick={onDelete}>
            Delete<span className="visually-hidden"> {name}</span>
          </button>
        </div>
        {/* Always there, so the code host's answer is announced when it arrives. */}
        <div role="status" className="destination-result">
          {result ? (
            <p className={result.ok ? 'alert alert-success' : 'alert alert-error'}>
              {result.ok ? 'It works. ' : 'It does not work. '}
              {result.detail}
            </p>
          ) : null}
        </div>
        {error ? <ProblemAlert error={error.error} title={error.title} /> : null}
      </article>
    </li>
  );
}
