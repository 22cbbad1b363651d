import { useState } from 'react';
import { api, ok, ProblemError } from '../api';
import { SelectField, TextAreaField, TextField } from '../components/Field';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { useSubmit } from '../components/useSubmit';
import type { Incident, IncidentImpact, IncidentStatus, StatusPage } from '../types';
import { IMPACTS, INCIDENT_STATUSES } from './StatusPageBits';

export function OpenIncidentForm({ page, onOpened }: { page: StatusPage; onOpened: (incident: Incident) => void }) {
  const [title, setTitle] = useState('');
  const [impact, setImpact] = useState<IncidentImpact>('minor');
  const [status, setStatus] = useState<IncidentStatus>('investigating');
  const [message, setMessage] = useState('');
  const [local, setLocal] = useState<{ title?: string; message?: string }>({});
  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      const problems: typeof local = {};
      if (!title.trim()) problems.title = 'Say what is wrong, in a few words the public understands.';
      if (!message.trim()) problems.message = 'Tell the public what you know so far.';
      setLocal(problems);
      return Object.keys(problems).length === 0;
    },
    send: async () => {
      const incident = await ok(
        api.POST('/status-pages/{id}/incidents', {
          params: { path: { id: page.id } },
          body: { title: title.trim(), impact, status, message: message.trim() },
        }),
      );
      setTitle('');
      setMessage('');
      setStatus('investigating');
      setImpact('minor');
      onOpened(incident);
    },
  });
  const invalid =
    error instanceof ProblemError && Array.isArray(error.problem.errors) && error.problem.errors.length > 0;

  return (
    <div className="incident-open">
      <h3 id="open-incident-heading">Open an incident</h3>
      <form className="form" aria-labelledby="open-incident-heading" onSubmit={onSubmit} noValidate>
        {invalid ? (
          <ProblemAlert error={error} title="The incident was not opened: correct the fields marked below" />
        ) : (
          <ProblemAlert error={error} title="The incident was not opened" />
        )}
        <TextField
          id="incident-title"
          label="Title"
          required
          maxLength={200}
          placeholder="e.g. Checkout is slow"
          value={title}
          onChange={setTitle}
          error={local.title ?? fieldError(error, 'title')}
        />
        <div className="rule-form-grid">
          <SelectField
            id="incident-impact"
            label="Impact"
            value={impact}
            onChange={setImpact}
            options={IMPACTS}
            error={fieldError(error, 'impact')}
          />
          <SelectField
            id="incident-status"
            label="Status"
            value={status}
            onChange={setStatus}
            options={INCIDENT_STATUSES}
            error={fieldError(error, 'status')}
          />
        </div>
        <TextAreaField
          id="incident-message"
          label="First update"
          required
          rows={3}
          maxLength={5000}
          hint="What the public reads first: what is affected, and what you are doing."
          value={message}
          onChange={setMessage}
          error={local.message ?? fieldError(error, 'message')}
        />
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Opening…' : 'Open incident'}
        </button>
      </form>
    </div>
  );
}
