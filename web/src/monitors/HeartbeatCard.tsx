import { useState } from 'react';
import { api, ok } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { CopyField } from '../components/CopyField';
import { formatDateTime, formatInterval } from '../format';
import type { Monitor } from '../types';

type Heartbeat = NonNullable<Monitor['heartbeat']>;

/** "Every 1 day, 5 minutes of grace" / "At 0 3 * * * in Europe/Paris, 15 minutes of grace". */
export function scheduleText(heartbeat: Heartbeat): string {
  const when = heartbeat.cron
    ? `At ${heartbeat.cron} (cron) in ${heartbeat.timezone}`
    : `Every ${formatInterval(heartbeat.interval_seconds ?? 0)}`;
  const grace = heartbeat.grace_seconds ? formatInterval(heartbeat.grace_seconds) : 'no';
  return `${when}, ${grace} of grace`;
}

/** A heartbeat monitor's ping URL (to copy into the job), how to call it, its last run, and a new URL on demand. */
export function HeartbeatCard({
  monitor,
  mayWrite,
  onChanged,
}: {
  monitor: Monitor & { heartbeat: Heartbeat };
  mayWrite: boolean;
  onChanged: (monitor: Monitor) => void;
}) {
  const [rotating, setRotating] = useState(false);
  const { heartbeat } = monitor;
  const url = new URL(heartbeat.ping_url, window.location.origin).toString();
  return (
    <section aria-labelledby="heartbeat-heading" className="card">
      <h2 id="heartbeat-heading">Heartbeat</h2>
      <p className="small muted">Secret: anyone with it can ping this monitor. Give it to the job only.</p>
      <CopyField id="heartbeat-ping-url" label="Ping URL" value={url} noun="address" />
      <p className="small">At the end of the job, for instance in its crontab line:</p>
      <pre className="response-body">
        <code>{`if backup.sh; then curl -fsS -m 10 --retry 3 ${url}\nelse curl -fsS -m 10 --retry 3 ${url}/fail; fi`}</code>
      </pre>
      <p className="small muted">
        <code>/start</code> when it starts times the run; <code>?exit_code=</code> and a POST body (up to 10 KiB) are
        kept with a failure.
      </p>
      <dl className="meta-grid">
        <div>
          <dt>Expected</dt>
          <dd>{scheduleText(heartbeat)}</dd>
        </div>
        <div>
          <dt>Last ping</dt>
          <dd>{heartbeat.last_ping_at ? formatDateTime(heartbeat.last_ping_at) : 'Not yet'}</dd>
        </div>
        {heartbeat.started_at ? (
          <div>
            <dt>Running since</dt>
            <dd>{formatDateTime(heartbeat.started_at)}</dd>
          </div>
        ) : null}
        <div>
          <dt>Next ping due by</dt>
          <dd>{monitor.paused ? 'Paused' : formatDateTime(heartbeat.next_ping_due_at)}</dd>
        </div>
      </dl>
      {mayWrite ? (
        <button type="button" className="button button-secondary" onClick={() => setRotating(true)}>
          New ping URL
        </button>
      ) : null}
      {rotating ? (
        <ConfirmDialog
          title="Give this monitor a new ping URL?"
          confirmLabel="Replace the URL"
          busyLabel="Replacing…"
          onConfirm={async () => {
            const rotated = await ok(
              api.POST('/monitors/{id}/heartbeat/rotate', { params: { path: { id: monitor.id } } }),
            );
            setRotating(false);
            onChanged(rotated);
          }}
          onClose={() => setRotating(false)}
        >
          The current URL stops working at once: pings to it are refused until the job is given the new one.
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
