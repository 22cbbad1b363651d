import { ProblemAlert } from '../components/ProblemAlert';
import { useAllMonitors } from '../hooks/useAllMonitors';
import type { CurrentUser, StatusPage } from '../types';

/** The components as a viewer reads them: names, and the monitors behind each. */
export function ComponentsView({ page, me }: { page: StatusPage; me: CurrentUser }) {
  const monitors = useAllMonitors();
  const named = new Map((monitors.data ?? []).map((monitor) => [monitor.id, monitor.name]));
  return (
    <section aria-labelledby="components-heading" className="card">
      <h2 id="components-heading">Components</h2>
      {page.description ? <p>{page.description}</p> : null}
      <ProblemAlert error={monitors.error} title="The monitors could not be loaded" />
      {page.components.length === 0 ? (
        <p className="muted">No components: the page shows only incidents.</p>
      ) : (
        <ul className="component-list">
          {page.components.map((component) => (
            <li key={component.id}>
              <strong>{component.name}</strong>
              <span className="block small muted">
                {component.monitor_ids.length === 0
                  ? 'No monitors'
                  : `From ${component.monitor_ids.map((monitorId) => named.get(monitorId) ?? 'a monitor').join(', ')}`}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className="small muted">Monitors of {me.workspace.name} are never named on the public page.</p>
    </section>
  );
}
