import { A11yAttestation } from '../a11y-scans/entities/a11y-attestation.entity';
import { A11yScan } from '../a11y-scans/entities/a11y-scan.entity';
import { AlertDestination } from '../alerts/entities/alert-destination.entity';
import { AlertRule } from '../alerts/entities/alert-rule.entity';
import { HeldAlert } from '../alerts/entities/held-alert.entity';
import { WebhookDelivery } from '../alerts/entities/webhook-delivery.entity';
import { ApiKey } from '../api-keys/api-key.entity';
import { CrawlUrl } from '../crawl/entities/crawl-url.entity';
import { Crawl } from '../crawl/entities/crawl.entity';
import { OutboxEvent } from '../events/event.entity';
import { Change } from '../changes/entities/change.entity';
import { IdempotencyKey } from '../common/idempotency/idempotency-key.entity';
import { CheckRollup } from '../monitors/entities/check-rollup.entity';
import { MonitorCheck } from '../monitors/entities/monitor-check.entity';
import { Monitor } from '../monitors/entities/monitor.entity';
import { TrackedValueReadingRecord } from '../monitors/entities/tracked-value-reading.entity';
import { ReleaseCheckArtifact } from '../release-checks/entities/release-check-artifact.entity';
import { ReleaseCheck } from '../release-checks/entities/release-check.entity';
import { ReleaseCheckReview } from '../release-checks/entities/release-check-review.entity';
import { User } from '../users/user.entity';
import { WorkspaceMember } from '../workspaces/entities/workspace-member.entity';
import { Workspace } from '../workspaces/entities/workspace.entity';
import { Setting } from './setting.entity';
import { ReportRun } from '../reports/entities/report-run.entity';
import { Report } from '../reports/entities/report.entity';
import { Incident, IncidentUpdate } from '../status-pages/entities/incident.entity';
import { StatusPage } from '../status-pages/entities/status-page.entity';
import { StatusPageSubscriber } from '../status-pages/entities/status-page-subscriber.entity';
import { SubscriberNotification } from '../status-pages/entities/subscriber-notification.entity';
import { MaintenanceWindow } from '../maintenance/entities/maintenance-window.entity';

/** Every entity, listed explicitly: no file-system discovery, so the same list works in tests, builds and the CLI. */
export const ENTITIES = [
  User,
  Workspace,
  WorkspaceMember,
  ApiKey,
  Setting,
  ReleaseCheck,
  ReleaseCheckArtifact,
  ReleaseCheckReview,
  Monitor,
  MonitorCheck,
  CheckRollup,
  TrackedValueReadingRecord,
  Change,
  A11yScan,
  A11yAttestation,
  Crawl,
  CrawlUrl,
  OutboxEvent,
  AlertDestination,
  AlertRule,
  WebhookDelivery,
  StatusPage,
  Incident,
  IncidentUpdate,
  Report,
  ReportRun,
  IdempotencyKey,
  MaintenanceWindow,
  HeldAlert,
  StatusPageSubscriber,
  SubscriberNotification,
];
