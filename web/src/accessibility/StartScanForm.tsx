import { type FormEvent, useState } from 'react';
import { api, ok } from '../api';
import { SelectField } from '../components/Field';
import { ProblemAlert } from '../components/ProblemAlert';
import type { A11yScan } from '../types';

export function StartScanForm({
  monitors,
  initial,
  onStarted,
}: {
  monitors: { id: string; name: string }[];
  initial: string | undefined;
  onStarted: (scan: A11yScan) => void;
}) {
  const [chosen, setChosen] = useState<string>(initial ?? '');
  const [viewports, setViewports] = useState<'both' | 'desktop' | 'mobile'>('both');
  const [error, setError] = useState<unknown>(null);
  const [local, setLocal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const monitorId = chosen || monitors[0]?.id || '';

  async function start(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!monitorId) {
      setLocal('Create a monitor first: a scan checks a monitor’s page.');
      return;
    }
    setLocal(null);
    setBusy(true);
    try {
      const scan = await ok(
        api.POST('/monitors/{id}/a11y-scan', {
          params: { path: { id: monitorId } },
          body: viewports === 'both' ? {} : { viewports: [viewports] },
        }),
      );
      onStarted(scan);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="start-scan-heading" className="card">
      <h2 id="start-scan-heading">Start a scan</h2>
      <form className="form form-row" onSubmit={(event) => void start(event)} noValidate>
        <SelectField
          id="scan-monitor"
          label="Monitor"
          value={monitorId}
          onChange={setChosen}
          options={monitors.map((monitor) => ({ value: monitor.id, label: monitor.name }))}
          error={local}
        />
        <SelectField
          id="scan-viewports"
          label="Viewports"
          value={viewports}
          onChange={setViewports}
          options={[
            { value: 'both', label: 'Desktop and mobile' },
            { value: 'desktop', label: 'Desktop (1440 × 900)' },
            { value: 'mobile', label: 'Mobile (390 × 844)' },
          ]}
        />
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Starting…' : 'Start scan'}
        </button>
      </form>
      <ProblemAlert error={error} />
    </section>
  );
}
