import { useId } from 'react';
import { api, ok } from '../api';
import { ManagedBadge } from '../components/ManagedBadge';
import { ProblemAlert } from '../components/ProblemAlert';
import { formatDateTime } from '../format';
import { useItemAction } from '../hooks/useItemAction';
import type { MaintenanceOccurrence, MaintenanceWindow, Monitor } from '../types';
import { coversText, effectWord, MaintenanceStatusBadge } from './MaintenanceBits';
import { durationText, recurrenceText } from './maintenance-times';

const span = (occurrence: MaintenanceOccurrence) =>
  `${formatDateTime(occurrence.starts_at)} – ${formatDateTime(occurrence.ends_at)}`;

/** When the window is (or was) under way: the current occurrence, the next, or, once done, when a one-off one ran. */
function timeFact(maintenance: MaintenanceWindow): { term: string; value: string } {
  if (maintenance.current) return { term: 'Under way', value: span(maintenance.current) };
  if (maintenance.next) return { term: 'Next', value: span(maintenance.next) };
  if (maintenance.rrule) return { term: 'Next', value: 'None to come' };
  // A one-off window's only occurrence, cut short where "end now" ended it.
  const start = Date.parse(maintenance.starts_at);
  const plannedEnd = Date.parse(maintenance.ends_at);
  const endedAt = maintenance.ended_at ? Date.parse(maintenance.ended_at) : NaN;
  const end = endedAt >= start && endedAt < plannedEnd ? endedAt : plannedEnd;
  return { term: 'Ran', value: span({ starts_at: maintenance.starts_at, ends_at: new Date(end).toISOString() }) };
}

/** One maintenance window of the list: its status, what it does and covers, when; "End now" and "Delete". */
export function WindowItem({
  maintenance,
  monitors,
  mayWrite,
  onEnded,
  onDelete,
}: {
  maintenance: MaintenanceWindow;
  /** The workspace's monitors, to name those it covers; null while they load. */
  monitors: readonly Monitor[] | null;
  mayWrite: boolean;
  onEnded: (ended: MaintenanceWindow) => void;
  onDelete: () => void;
}) {
  const headingId = useId();
  const { busy, error, run } = useItemAction<'end'>();
  const { id, name } = maintenance;
  const when = timeFact(maintenance);

  const endNow = () =>
    run('end', `“${name}” was not ended`, async () => {
      onEnded(await ok(api.POST('/maintenance-windows/{id}/end', { params: { path: { id } } })));
    });

  return (
    <li className="maintenance-window" data-maintenance-id={id}>
      <article aria-labelledby={headingId}>
        <div className="maintenance-head">
          <h3 id={headingId}>{name}</h3>
          <p className="check-badges">
            <MaintenanceStatusBadge status={maintenance.status} />{' '}
            <ManagedBadge declarationKey={maintenance.declaration_key} />
          </p>
        </div>
        {maintenance.message ? <p className="maintenance-message">{maintenance.message}</p> : null}
        <dl className="meta-grid maintenance-facts">
          <div>
            <dt>Effect</dt>
            <dd>{effectWord(maintenance.effect)}</dd>
          </div>
          <div>
            <dt>Covers</dt>
            <dd>{coversText(maintenance, monitors)}</dd>
          </div>
          <div>
            <dt>{when.term}</dt>
            <dd>{when.value}</dd>
          </div>
          <div>
            <dt>Duration</dt>
            <dd>{durationText(maintenance.duration_minutes)}</dd>
          </div>
          {maintenance.rrule ? (
            <>
              <div>
                <dt>Repeats</dt>
                <dd>{recurrenceText(maintenance.rrule) ?? <code>{maintenance.rrule}</code>}</dd>
              </div>
              <div>
                <dt>Time zone</dt>
                <dd>{maintenance.timezone}</dd>
              </div>
            </>
          ) : null}
        </dl>
        {mayWrite ? (
          <div className="button-row">
            {maintenance.status === 'active' ? (
              <button
                type="button"
                className="button button-small button-secondary"
                disabled={busy !== null}
                onClick={() => void endNow()}
              >
                {busy === 'end' ? 'Ending…' : 'End now'}
                <span className="visually-hidden"> {name}</span>
              </button>
            ) : null}
            <button type="button" className="button button-small button-danger-outline" onClick={onDelete}>
              Delete<span className="visually-hidden"> {name}</span>
            </button>
          </div>
        ) : null}
        {error ? <ProblemAlert error={error.error} title={error.title} /> : null}
      </article>
    </li>
  );
}
