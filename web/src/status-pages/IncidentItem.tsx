import { useId, useState } from 'react';
import { api, ok, ProblemError } from '../api';
import { SelectField, TextAreaField } from '../components/Field';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { useSubmit } from '../components/useSubmit';
import { formatDateTime } from '../format';
import type { Incident, IncidentStatus } from '../types';
import {
  ImpactBadge,
  INCIDENT_STATUSES,
  incidentStatusLabel,
  IncidentStatusBadge,
  nextIncidentStatus,
} from './StatusPageBits';

export function IncidentItem({
  pageId,
  incident,
  mayWrite,
  onUpdated,
}: {
  pageId: string;
  incident: Incident;
  mayWrite: boolean;
  onUpdated: (incident: Incident) => void;
}) {
  const headingId = useId();
  const [note, setNote] = useState<string | null>(null);
  const resolved = incident.status === 'resolved';
  return (
    <li className="incident" data-incident-id={incident.id}>
      <article aria-labelledby={headingId}>
        <div className="destination-head">
          <h3 id={headingId}>{incident.title}</h3>
          <p className="check-badges">
            <ImpactBadge impact={incident.impact} />
            <IncidentStatusBadge status={incident.status} />
          </p>
        </div>
        <p className="small muted">
          Opened {formatDateTime(incident.created_at)}
          {incident.resolved_at ? ` · resolved ${formatDateTime(incident.resolved_at)}` : ''}
        </p>
        <ol className="incident-updates" aria-label={`Updates to ${incident.title}, oldest first`}>
          {incident.updates.map((update) => (
            <li key={update.id} className="incident-update">
              <p className="incident-update-head">
                <strong>{incidentStatusLabel(update.status)}</strong>{' '}
                <time className="small muted" dateTime={update.created_at}>
                  {formatDateTime(update.created_at)}
                </time>
              </p>
              <p className="incident-update-message">{update.message}</p>
            </li>
          ))}
        </ol>
        <div role="status">{note ? <p className="alert alert-success">{note}</p> : null}</div>
        {resolved ? (
          <p className="small muted">
            Resolved: it takes no more updates. If the problem returns, open a new incident.
          </p>
        ) : mayWrite ? (
          <UpdateIncidentForm
            pageId={pageId}
            incident={incident}
            onPosted={(updated, status) => {
              setNote(
                status === 'resolved'
                  ? `Resolved “${updated.title}”.`
                  : `Posted an update to “${updated.title}”: ${incidentStatusLabel(status)}.`,
              );
              onUpdated(updated);
            }}
          />
        ) : null}
      </article>
    </li>
  );
}

function UpdateIncidentForm({
  pageId,
  incident,
  onPosted,
}: {
  pageId: string;
  incident: Incident;
  onPosted: (incident: Incident, status: IncidentStatus) => void;
}) {
  const headingId = useId();
  const [status, setStatus] = useState<IncidentStatus>(() => nextIncidentStatus(incident.status));
  const [message, setMessage] = useState('');
  const [local, setLocal] = useState<string | null>(null);
  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      const problem = message.trim() ? null : 'Write the update the public reads.';
      setLocal(problem);
      return problem === null;
    },
    send: async () => {
      const updated = await ok(
        api.PATCH('/status-pages/{id}/incidents/{incident_id}', {
          params: { path: { id: pageId, incident_id: incident.id } },
          body: { status, message: message.trim() },
        }),
      );
      setMessage('');
      setStatus(nextIncidentStatus(updated.status));
      onPosted(updated, status);
    },
  });
  const invalid =
    error instanceof ProblemError && Array.isArray(error.problem.errors) && error.problem.errors.length > 0;
  const id = `incident-${incident.id}`;

  return (
    <form className="form incident-update-form" aria-labelledby={headingId} onSubmit={onSubmit} noValidate>
      <h4 id={headingId} className="h-small">
        Post an update<span className="visually-hidden"> to {incident.title}</span>
      </h4>
      {invalid ? (
        <ProblemAlert error={error} title="The update was not posted: correct the fields marked below" />
      ) : (
        <ProblemAlert error={error} title="The update was not posted" />
      )}
      <SelectField
        id={`${id}-status`}
        label="New status"
        value={status}
        onChange={setStatus}
        options={INCIDENT_STATUSES}
        error={fieldError(error, 'status')}
      />
      <TextAreaField
        id={`${id}-message`}
        label="Message"
        required
        rows={2}
        maxLength={5000}
        value={message}
        onChange={setMessage}
        error={local ?? fieldError(error, 'message')}
      />
      <button type="submit" className="button button-secondary" disabled={busy}>
        {busy ? 'Posting…' : 'Post update'}
        <span className="visually-hidden"> to {incident.title}</span>
      </button>
    </form>
  );
}
