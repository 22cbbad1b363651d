import { useState } from 'react';
import { api, ok } from '../api';
import { useDriftConfirm } from '../components/DriftWarning';
import { ProblemAlert } from '../components/ProblemAlert';
import type { CheckRun, Monitor } from '../types';
import { CheckRunResult } from './MonitorBits';

/**
 * What a monitor row's buttons are doing, and what came of it. Pausing or resuming a monitor a declaration manages
 * asks first: it is drift.
 */
export function useMonitorActions(onChanged: (monitor: Monitor) => void) {
  const [busy, setBusy] = useState<{ id: string; action: 'pause' | 'check' } | null>(null);
  const [run, setRun] = useState<CheckRun | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<{ title: string; error: unknown } | null>(null);
  const drift = useDriftConfirm();

  function togglePause(monitor: Monitor) {
    const verb = monitor.paused ? 'Resume' : 'Pause';
    drift.confirm(
      { noun: 'monitor', declarationKey: monitor.declaration_key },
      { title: `${verb} “${monitor.name}” by hand?`, confirmLabel: `${verb} anyway` },
      () => void setPaused(monitor),
    );
  }

  async function setPaused(monitor: Monitor) {
    setBusy({ id: monitor.id, action: 'pause' });
    setError(null);
    setMessage(null);
    try {
      const updated = await ok(
        api.PATCH('/monitors/{id}', { params: { path: { id: monitor.id } }, body: { paused: !monitor.paused } }),
      );
      onChanged(updated);
      setMessage(
        updated.paused
          ? `Paused “${updated.name}”: no scheduled checks until you resume it.`
          : `Resumed “${updated.name}”: its next check is scheduled.`,
      );
    } catch (caught) {
      setError({ title: `“${monitor.name}” was not ${monitor.paused ? 'resumed' : 'paused'}`, error: caught });
    } finally {
      setBusy(null);
    }
  }

  async function checkNow(monitor: Monitor) {
    setBusy({ id: monitor.id, action: 'check' });
    setError(null);
    setMessage(null);
    setRun(null);
    try {
      const result = await ok(api.POST('/monitors/{id}/check', { params: { path: { id: monitor.id } } }));
      onChanged(result.monitor);
      setRun(result);
    } catch (caught) {
      setError({ title: `“${monitor.name}” could not be checked`, error: caught });
    } finally {
      setBusy(null);
    }
  }

  const feedback = (
    <>
      <div className="action-feedback">
        {message ? (
          <p className="alert alert-success" role="status">
            {message}
          </p>
        ) : null}
        {error ? <ProblemAlert error={error.error} title={error.title} /> : null}
        {run ? <CheckRunResult run={run} /> : null}
      </div>
      {drift.dialog}
    </>
  );
  return { busy, togglePause, checkNow, feedback };
}

export function MonitorActions({
  monitor,
  actions,
}: {
  monitor: Monitor;
  actions: Pick<ReturnType<typeof useMonitorActions>, 'busy' | 'togglePause' | 'checkNow'>;
}) {
  const busy = actions.busy?.id === monitor.id ? actions.busy.action : null;
  return (
    <div className="button-row monitor-actions">
      {monitor.mode === 'heartbeat' ? null : (
        <button
          type="button"
          className="button button-small button-secondary"
          disabled={busy !== null}
          onClick={() => void actions.checkNow(monitor)}
        >
          {busy === 'check' ? 'Checking…' : 'Check now'}
          <span className="visually-hidden"> {monitor.name}</span>
        </button>
      )}
      <button
        type="button"
        className="button button-small button-secondary"
        disabled={busy !== null}
        onClick={() => actions.togglePause(monitor)}
      >
        {busy === 'pause' ? 'Saving…' : monitor.paused ? 'Resume' : 'Pause'}
        <span className="visually-hidden"> {monitor.name}</span>
      </button>
    </div>
  );
}
