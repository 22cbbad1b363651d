import { useState } from 'react';
import { api, ok } from '../api';
import { CopyField } from '../components/CopyField';
import { ProblemAlert } from '../components/ProblemAlert';
import type { Monitor } from '../types';

export function BadgeCard({
  monitor,
  mayWrite,
  onChanged,
}: {
  monitor: Monitor;
  mayWrite: boolean;
  onChanged: (monitor: Monitor) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const path = { params: { path: { id: monitor.id } } };

  async function toggle() {
    setBusy(true);
    setError(null);
    try {
      if (monitor.badge_enabled) {
        await ok(api.DELETE('/monitors/{id}/badge', path));
        onChanged({ ...monitor, badge_enabled: false, badge_url: null });
      } else {
        const badge = await ok(api.POST('/monitors/{id}/badge', path));
        onChanged({ ...monitor, badge_enabled: true, badge_url: badge.url });
      }
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  const absolute = monitor.badge_url ? new URL(monitor.badge_url, window.location.origin).toString() : null;
  return (
    <section aria-labelledby="badge-heading" className="card">
      <h2 id="badge-heading">Status badge</h2>
      {monitor.badge_enabled && absolute ? (
        <>
          <p>
            <img src={absolute} alt={`Status badge of ${monitor.name}`} className="status-badge" />
          </p>
          <p className="small muted">Public: anyone with the address sees the monitor’s name and status.</p>
          <CopyField id="badge-markdown" label="Markdown" value={`![${monitor.name} status](${absolute})`} />
        </>
      ) : (
        <p className="muted">The badge is off. Turned on, it shows this monitor’s status on a README or status page.</p>
      )}
      <ProblemAlert error={error} />
      {mayWrite ? (
        <button type="button" className="button button-secondary" disabled={busy} onClick={() => void toggle()}>
          {busy ? 'Saving…' : monitor.badge_enabled ? 'Disable badge' : 'Enable badge'}
        </button>
      ) : null}
    </section>
  );
}
