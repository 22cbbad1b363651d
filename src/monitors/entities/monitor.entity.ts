import { randomUUID } from 'node:crypto';
import { ArrayType, type Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Region } from '../../../libs/compare';
import type { ServedCertificate } from '../../../libs/net-guard';
import type { ResponseAssertion, TrackedValueReading, TrackedValueSpec } from '../../../libs/page-check';
import { User } from '../../users/user.entity';
import type { HeartbeatSchedule } from '../heartbeat-schedule';
import { WorkspaceScoped } from '../../common/tenancy/workspace-scope';
import { Workspace } from '../../workspaces/entities/workspace.entity';

export const MONITOR_STATUSES = ['up', 'down', 'paused', 'pending'] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];
export const MONITOR_MODES = ['http', 'browser', 'heartbeat'] as const;
export type MonitorMode = (typeof MONITOR_MODES)[number];

/** Each region's latest verdict; the monitor's status is derived from it. */
export type RegionStatus = Record<string, 'up' | 'down'>;

export const DEFAULT_VISUAL_THRESHOLD = 0.01;

/** What a monitor has seen move on its own: line patterns (digits as `#`) and screenshot regions. */
export interface Volatility {
  lines: string[];
  regions: Region[];
}

/** What a page says about itself, compared check to check for metadata changes. */
export interface PageMetadata {
  title: string | null;
  robots: string | null;
  canonical: string | null;
  /** `2xx`, `3xx`…, of the final answer. */
  status_class: string | null;
}

/** Every file of a monitor (browser checks' screenshots) lies under this folder of the artifact store. */
export const monitorFolder = (monitorId: string) => `monitors/${monitorId}`;

@Entity({ tableName: 'monitors' })
@WorkspaceScoped()
@Index({ properties: ['workspace', 'createdAt'] })
// The scheduler's scan: due, unpaused monitors in due order.
@Index({
  name: 'monitors_due_index',
  expression: 'create index "monitors_due_index" on "monitors" ("next_check_at") where not "paused"',
})
// A declaration's logical key names one resource (DeclarationsService).
@Index({
  name: 'monitors_declaration_key_unique',
  expression:
    'create unique index "monitors_declaration_key_unique" on "monitors" ("workspace_id", "declaration_key") where "declaration_key" is not null',
})
export class Monitor {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Workspace, { deleteRule: 'cascade' })
  workspace: Workspace;

  /** The logical key of the declaration managing it; null when it is managed by hand. */
  @Property({ type: 'text', nullable: true })
  declarationKey: string | null = null;

  /** Who created it; null once that person is deleted (the monitor stays with the workspace). */
  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  createdBy: User | null = null;

  /** The monitor this one depends on: while it is down, this one's new alerts are held (`withParent`). */
  @ManyToOne(() => Monitor, { nullable: true, deleteRule: 'set null' })
  parent: Monitor | null = null;

  @Property({ type: 'text' })
  name: string;

  /** The checked page; null for heartbeat monitors, which are pinged instead. */
  @Property({ type: 'text', nullable: true })
  url: string | null;

  @Property({ type: 'text' })
  mode: MonitorMode & Opt = 'http';

  @Property({ type: 'integer' })
  intervalSeconds: number & Opt = 300;

  @Property({ type: 'integer' })
  timeoutSeconds: number & Opt = 30;

  @Property({ type: 'integer' })
  expectedStatusMin: number & Opt = 200;

  @Property({ type: 'integer' })
  expectedStatusMax: number & Opt = 399;

  @Property({ type: 'text', nullable: true })
  keyword: string | null = null;

  @Property({ type: 'text', nullable: true })
  selector: string | null = null;

  @Property({ type: ArrayType, columnType: 'text[]' })
  regions: string[];

  @Property({ type: 'json' })
  trackedValues: TrackedValueSpec[] & Opt = [];

  /** Conditions every check's response must meet (HTTP monitors). */
  @Property({ type: 'json' })
  assertions: ResponseAssertion[] & Opt = [];

  @Property({ type: 'text' })
  status: MonitorStatus & Opt = 'pending';

  @Property({ type: 'boolean' })
  paused: boolean & Opt = false;

  @Property({ type: 'json' })
  regionStatus: RegionStatus & Opt = {};

  /** The public badge's unguessable token; null while the badge is disabled. */
  @Property({ type: 'text', nullable: true, unique: true })
  badgeToken: string | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  lastCheckedAt: Date | null = null;

  /** When the scheduler enqueues the next check; null while paused. */
  @Property({ type: 'timestamptz', nullable: true })
  nextCheckAt: Date | null = null;

  /** The watched text as last seen by a passing check: the "before" of the next change. */
  @Property({ type: 'text', nullable: true, lazy: true })
  contentText: string | null = null;

  @Property({ type: 'text', nullable: true })
  contentHash: string | null = null;

  /** Browser mode: the screenshot of the last passing check, the "before" image of the next change. */
  @Property({ type: 'text', nullable: true })
  screenshotKey: string | null = null;

  /** Browser mode: a screenshot differing by more than this share of pixels is a visual change. */
  @Property({ type: 'double' })
  visualThreshold: number & Opt = DEFAULT_VISUAL_THRESHOLD;

  /** What this monitor has seen move on its own; left out of every comparison (decision 0012). */
  @Property({ type: 'json' })
  volatile: Volatility & Opt = { lines: [], regions: [] };

  /** The title, robots, canonical and status class of the last passing check: the "before" of a metadata change. */
  @Property({ type: 'json', nullable: true })
  metadata: PageMetadata | null = null;

  /** Heartbeat monitors: when pings are expected. Their `nextCheckAt` is the next ping's deadline. */
  @Property({ type: 'json', nullable: true })
  heartbeat: HeartbeatSchedule | null = null;

  /** Heartbeat monitors: the secret of the ping URL. */
  @Property({ type: 'text', nullable: true, unique: true })
  heartbeatToken: string | null = null;

  /** Heartbeat monitors: the last success or failure ping. */
  @Property({ type: 'timestamptz', nullable: true })
  heartbeatPingedAt: Date | null = null;

  /** Heartbeat monitors: when the running job said it started; null once it ended. */
  @Property({ type: 'timestamptz', nullable: true })
  heartbeatStartedAt: Date | null = null;

  /** The certificate the latest HTTPS check was served, from any region. */
  @Property({ type: 'json', nullable: true })
  certificate: ServedCertificate | null = null;

  /** The latest reading of each tracked value, by name: the "before" of the next value change. */
  @Property({ type: 'json' })
  trackedState: Record<string, TrackedValueReading> & Opt = {};

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
