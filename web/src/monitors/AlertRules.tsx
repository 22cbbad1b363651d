import { useState } from 'react';
import { ProblemAlert } from '../components/ProblemAlert';
import { PagedList, ResourceView } from '../components/ResourceView';
import { useAllDestinations } from '../hooks/useAllDestinations';
import { useApi } from '../hooks/useApi';
import { canWrite } from '../permissions';
import { Link } from '../router';
import type { CurrentUser, Monitor } from '../types';
import { AddRuleForm } from './AddRuleForm';
import { ruleSentence } from './rule-text';
import { RuleItem } from './RuleItem';

/** A monitor's alert rules, on its page: what each sends where, its state, enable or disable, and a form to add one. */
export function AlertRules({ monitor, me }: { monitor: Monitor; me: CurrentUser }) {
  const mayWrite = canWrite(me);
  const id = monitor.id;
  const [page, setPage] = useState(1);
  const [message, setMessage] = useState<string | null>(null);
  // A rule's state moves with checks: read again after each.
  const rules = useApi(
    '/monitors/{id}/rules',
    { params: { path: { id }, query: { page, per_page: 20 } } },
    { reloadOn: monitor.last_checked_at },
  );
  const destinations = useAllDestinations();
  const named = new Map((destinations.data ?? []).map((destination) => [destination.id, destination]));

  return (
    <section aria-labelledby="rules-heading" className="card alert-rules">
      <h2 id="rules-heading">Alert rules</h2>
      <p className="small muted">
        Each rule sends this monitor’s alerts to the destinations it names. Destinations are managed under{' '}
        <Link to="/alerts">Alerts</Link>; what was sent is in the <Link to="/alerts/deliveries">delivery log</Link>.
      </p>
      {mayWrite ? null : (
        <p className="alert alert-info">
          You are a viewer of {me.workspace.name}: you can read this monitor’s alert rules, but only a member or admin
          can add, enable, disable or delete them.
        </p>
      )}
      <div role="status">{message ? <p className="alert alert-success">{message}</p> : null}</div>
      <ProblemAlert error={destinations.error} title="The destinations could not be loaded" />
      <PagedList
        resource={rules}
        loadingText="Loading alert rules…"
        pagesLabel="Alert rule pages"
        onPage={setPage}
        empty={<p className="muted">No alert rules: nobody is told when this monitor goes down or changes.</p>}
      >
        {(list) => (
          <ul className="rule-list">
            {list.map((rule) => (
              <RuleItem
                key={rule.id}
                rule={rule}
                monitorKey={monitor.declaration_key}
                named={named}
                mayWrite={mayWrite}
                onChanged={(updated, note) => {
                  rules.mutate((current) => ({
                    ...current,
                    data: current.data.map((item) => (item.id === updated.id ? updated : item)),
                  }));
                  setMessage(note);
                }}
                onDeleted={(note) => {
                  setMessage(note);
                  rules.reload();
                }}
              />
            ))}
          </ul>
        )}
      </PagedList>
      {mayWrite ? (
        <ResourceView resource={destinations} loadingText="Loading destinations…">
          {(choices) => (
            <AddRuleForm
              monitor={monitor}
              destinations={choices}
              onAdded={(rule) => {
                setMessage(`Added a rule: ${ruleSentence(rule)}`);
                rules.reload();
              }}
            />
          )}
        </ResourceView>
      ) : null}
    </section>
  );
}
