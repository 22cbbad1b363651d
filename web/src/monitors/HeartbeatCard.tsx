import { useState } from 'react';
import { api, ok } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { CopyField } from '../components/CopyField';
import { formatDateTime, formatInterval } from '../format';
import type { Monitor } from '../types';

/** A heartbeat monitor: its schedule, grace, ping URL and run state are all there. */
export type HeartbeatMonitor = Monitor & {
  schedule: NonNullable<Monitor['schedule']>;
  grace_seconds: number;
  ping_url: string;
  heartbeat: NonNullable<Monitor['heartbeat']>;
};

export const isHeartbeatMonitor = (monitor: Monitor): monitor is HeartbeatMonitor =>
  monitor.schedule !== null &&
  monitor.grace_seconds !== null &&
  monitor.ping_url !== null &&
  monitor.heartbeat !== null;

/** "Every 1 day, 5 minutes of grace" / "At 0 3 * * * in Europe/Paris, 15 minutes of grace". */
export function scheduleText({ schedule, grace_seconds }: HeartbeatMonitor): string {
  const when =
    'cron' in schedule
      ? `At ${schedule.cron} (cron) in ${schedule.timezone}`
      : `Every ${formatInterval(schedule.interval_seconds)}`;
  const grace = grace_seconds ? formatInterval(grace_seconds) : 'no';
  return `${when}, ${grace} of grace`;
}

/** A heartbeat monitor's ping URL (to copy into the job), how to call it, its last run, and a new URL on demand. */
export function HeartbeatCard({
  monitor,
  mayWrite,
  onChanged,
}: {
  monitor: HeartbeatMonitor;
  mayWrite: boolean;
  onChanged: (monitor: Monitor) => void;
}) {
  const [rotating, setRotating] = useState(false);
  const { heartbeat, ping_url: url } = monitor;
  return (
    <section aria-labelledby="heartbeat-heading" className="card">
      <h2 id="heartbeat-heading">Heartbeat</h2>
      <p className="small muted">Secret: anyone with it can ping this monitor. Give it to the job only.</p>
      <CopyField id="heartbeat-ping-url" label="Ping URL" value={url} noun="address" />
      <p className="small">
        At the end of the job, for instance in its crontab line, with its exit code (<code>0</code> is a success):
      </p>
      <pre className="response-body">
        <code>{`backup.sh; curl -fsS -m 10 --retry 3 ${url}/$?`}</code>
      </pre>
      <p className="small muted">
        The URL as it is is a success, <code>/fail</code> a failure; <code>/start</code> when the job starts times the
        run. A POST body (up to 10 KiB) is kept with a failure.
      </p>
      <dl className="meta-grid">
        <div>
          <dt>Expected</dt>
          <dd>{scheduleText(monitor)}</dd>
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
