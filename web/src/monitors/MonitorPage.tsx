import { ProblemError } from '../api';
import { useApi } from '../hooks/useApi';
import { canWrite } from '../permissions';

import { ManagedBadge } from '../components/ManagedBadge';
import { ResourceView } from '../components/ResourceView';
import { usePageTitle } from '../components/usePageTitle';
import { formatDateTime, formatInterval, plural } from '../format';
import { Link } from '../router';
import type { CurrentUser, Monitor } from '../types';

import { AlertRules } from './AlertRules';
import { assertionText } from './AssertionFields';
import { BadgeCard } from './BadgeCard';
import { DependsOn, HeldAlerts } from './Dependencies';
import { HeartbeatCard, isHeartbeatMonitor, scheduleText } from './HeartbeatCard';
import { RecentResults } from './RecentResults';
import { MonitorActions, useMonitorActions } from './MonitorActions';
import { MonitorStatusBadge, RegionBadges } from './MonitorBits';
import { Timeline } from './Timeline';
import { TrackedValues } from './TrackedValues';
import { UptimeSection } from './UptimeSection';
import { Breadcrumb } from '../components/Breadcrumb';

export function MonitorPage({ id, me }: { id: string; me: CurrentUser }) {
  const mayWrite = canWrite(me);
  const resource = useApi('/monitors/{id}', { params: { path: { id } } });
  const monitor = resource.data;
  usePageTitle(monitor ? `${monitor.name} · Monitor` : 'Monitor');
  const actions = useMonitorActions((updated) => resource.mutate(() => updated));

  return (
    <>
      <Breadcrumb trail={[{ to: '/monitors', label: 'Monitors' }]} current={monitor ? monitor.name : null} />
      {!monitor && resource.error ? <h1>Monitor</h1> : null}
      <ResourceView
        resource={resource}
        loadingText="Loading monitor…"
        errorTitle={
          resource.error instanceof ProblemError && resource.error.status === 404 ? 'Monitor not found' : undefined
        }
      >
        {(loaded) => (
          <>
            <div className="page-header">
              <div>
                <h1>{loaded.name}</h1>
                <p className="check-badges">
                  <MonitorStatusBadge status={loaded.status} />
                  <ManagedBadge declarationKey={loaded.declaration_key} />
                  <span className="url muted">{loaded.url ?? 'Heartbeat: pinged by a job'}</span>
                </p>
                {loaded.parent_id ? <DependsOn parentId={loaded.parent_id} /> : null}
              </div>
              <div className="button-row">
                {loaded.url !== null ? (
                  <Link to={`/accessibility?monitor=${loaded.id}`} className="button button-secondary button-small">
                    Accessibility scans
                  </Link>
                ) : null}
                {mayWrite ? (
                  <>
                    <Link to={`/monitors/${loaded.id}/edit`} className="button button-secondary button-small">
                      Edit<span className="visually-hidden"> {loaded.name}</span>
                    </Link>
                    <MonitorActions monitor={loaded} actions={actions} />
                  </>
                ) : null}
              </div>
            </div>
            {actions.feedback}
            <Facts monitor={loaded} />
            <UptimeSection monitor={loaded} />
            <div className="monitor-layout">
              {isHeartbeatMonitor(loaded) ? <RecentResults monitor={loaded} /> : <Timeline monitor={loaded} />}
              <div className="monitor-side">
                {isHeartbeatMonitor(loaded) ? (
                  <HeartbeatCard
                    monitor={loaded}
                    mayWrite={mayWrite}
                    onChanged={(next) => resource.mutate(() => next)}
                  />
                ) : (
                  <TrackedValues monitor={loaded} />
                )}
                <AlertRules monitor={loaded} me={me} />
                <HeldAlerts monitor={loaded} />
                <BadgeCard monitor={loaded} mayWrite={mayWrite} onChanged={(next) => resource.mutate(() => next)} />
              </div>
            </div>
          </>
        )}
      </ResourceView>
    </>
  );
}

const MODE_TEXT: Record<Monitor['mode'], string> = {
  http: 'HTTP',
  browser: 'Browser (Chromium, with screenshots)',
  heartbeat: 'Heartbeat (pinged by a job)',
};

function Facts({ monitor }: { monitor: Monitor }) {
  if (isHeartbeatMonitor(monitor)) {
    return (
      <dl className="meta-grid monitor-facts">
        <div>
          <dt>Mode</dt>
          <dd>{MODE_TEXT.heartbeat}</dd>
        </div>
        <div>
          <dt>Expected</dt>
          <dd>{scheduleText(monitor)}</dd>
        </div>
        <div>
          <dt>Last ping</dt>
          <dd>{monitor.heartbeat.last_ping_at ? formatDateTime(monitor.heartbeat.last_ping_at) : 'Not yet'}</dd>
        </div>
      </dl>
    );
  }
  return (
    <dl className="meta-grid monitor-facts">
      <div>
        <dt>Mode</dt>
        <dd>{MODE_TEXT[monitor.mode]}</dd>
      </div>
      <div>
        <dt>Checked every</dt>
        <dd>{formatInterval(monitor.interval_seconds)}</dd>
      </div>
      <div>
        <dt>Regions</dt>
        <dd>
          <RegionBadges regions={monitor.regions} />
        </dd>
      </div>
      <div>
        <dt>Last check</dt>
        <dd>{monitor.last_checked_at ? formatDateTime(monitor.last_checked_at) : 'Not yet'}</dd>
      </div>
      <div>
        <dt>Next check</dt>
        <dd>{monitor.paused ? 'Paused' : formatDateTime(monitor.next_check_at)}</dd>
      </div>
      <div>
        <dt>Keyword</dt>
        <dd>{monitor.keyword ? <code className="value">{monitor.keyword}</code> : 'None'}</dd>
      </div>
      <div>
        <dt>Selector</dt>
        <dd>{monitor.selector ? <code className="value">{monitor.selector}</code> : 'The whole page'}</dd>
      </div>
      <div>
        <dt>Expected status</dt>
        <dd>
          {monitor.expected_status.min}–{monitor.expected_status.max}
        </dd>
      </div>
      {monitor.certificate ? <CertificateFact certificate={monitor.certificate} /> : null}
      {monitor.assertions.length ? (
        <div>
          <dt>Assertions</dt>
          <dd>
            <ul className="plain-list">
              {monitor.assertions.map((assertion, index) => (
                <li key={index}>
                  <code className="value">{assertionText(assertion)}</code>
                </li>
              ))}
            </ul>
          </dd>
        </div>
      ) : null}
    </dl>
  );
}

/** The certificate the latest HTTPS check was served: when it expires, and who issued it to whom. */
function CertificateFact({ certificate }: { certificate: NonNullable<Monitor['certificate']> }) {
  const left = certificate.days_left;
  const tone = left < 0 ? 'danger' : left <= 14 ? 'warning' : 'success';
  return (
    <div>
      <dt>Certificate</dt>
      <dd>
        <span className={`badge badge-${tone}`}>
          {left < 0 ? `Expired ${plural(-left, 'day')} ago` : `${plural(left, 'day')} left`}
        </span>{' '}
        expires {formatDateTime(certificate.expires_at)}
        <br />
        <span className="muted">
          Issued by <span className="url">{certificate.issuer}</span> to{' '}
          <span className="url">{certificate.subject}</span>
        </span>
      </dd>
    </div>
  );
}
