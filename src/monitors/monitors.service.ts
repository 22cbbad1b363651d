import { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { assertionProblems, type ResponseAssertion } from '../../libs/page-check';
import type { WorkspacePrincipal } from '../common/auth/principal';
import { acrossWorkspaces } from '../common/tenancy/workspace-scope';
import { DomainError, NotFound, ValidationFailed } from '../common/errors/domain-errors';
import { type Page, pageOf, pageWindow } from '../common/pagination/pagination';
import { assertPublicTarget } from '../common/targets/public-target';
import { ArtifactStore } from '../artifacts/artifact-store';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { MonitorCheckJob } from '../queues/jobs';
import { PlanGate } from '../users/plan-gate';
import type {
  BadgeStyle,
  BadgeDto,
  CheckResultDto,
  CheckRunDto,
  MonitorDto,
  TrackedValueDto,
  UptimeDto,
} from './dto/monitor.dto';
import type { ChecksQuery, TrackedValuesQuery, UptimeQuery } from './dto/monitor-queries.dto';
import type {
  CreateMonitorDto,
  ExpectedStatusDto,
  ListMonitorsQuery,
  MonitorAssertionInputDto,
  UpdateMonitorDto,
} from './dto/monitor-requests.dto';
import { MonitorCheck } from './entities/monitor-check.entity';
import { Monitor, monitorFolder, type MonitorMode, type MonitorStatus } from './entities/monitor.entity';
import { TrackedValueReadingRecord } from './entities/tracked-value-reading.entity';
import { badgePath, presentCheck, presentMonitor, presentReading } from './monitor.presenter';
import { MonitorQueues } from './monitor-queues';
import { UptimeReader } from './uptime-reader';
import { AlertRule } from '../alerts/entities/alert-rule.entity';
import { lockUntilCommit } from '../db/transaction-lock';
import { creationKind, newPingToken, updatedKind } from './heartbeat-input';
import {
  type HeartbeatSchedule,
  pingDeadline,
  sameSchedule,
  sameTimes,
  scheduleIntervalSeconds,
} from './heartbeat-schedule';

/** A new or resumed monitor's first check comes within this, spread at random: never a burst. */
const FIRST_CHECK_SPREAD_MS = 60_000;
/** A check-now waits for its results this long beyond the monitor's own timeout. */
const CHECK_NOW_GRACE_MS = 15_000;
const CHECK_NOW_POLL_MS = 100;

const BADGE_LOOK: Record<MonitorStatus, { message: string; color: string }> = {
  up: { message: 'up', color: 'brightgreen' },
  down: { message: 'down', color: 'red' },
  paused: { message: 'paused', color: 'lightgrey' },
  pending: { message: 'pending', color: 'grey' },
};

@Injectable()
export class MonitorsService {
  private readonly logger = new Logger(MonitorsService.name);

  constructor(
    private readonly em: EntityManager,
    private readonly queues: MonitorQueues,
    private readonly uptimeReader: UptimeReader,
    private readonly planGate: PlanGate,
    private readonly artifacts: ArtifactStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `origin`, here and below: the origin of the answer's absolute URLs (`@PublicOrigin()`). */
  async list(query: ListMonitorsQuery, origin: string): Promise<Page<MonitorDto>> {
    const { offset, limit } = pageWindow(query);
    const [monitors, total] = await this.em.findAndCount(Monitor, query.status ? { status: query.status } : {}, {
      orderBy: { createdAt: 'asc', id: 'asc' },
      offset,
      limit,
    });
    return pageOf(
      monitors.map((monitor) => presentMonitor(monitor, origin)),
      total,
      query,
    );
  }

  async create(principal: WorkspacePrincipal, body: CreateMonitorDto, origin: string): Promise<MonitorDto> {
    const [created] = await this.createMany(principal, [body], origin);
    return created;
  }

  /**
   * Creates the monitors together or not at all: every one is checked first (regions, status range, a public
   * target), then the workspace's plan must have room for all of them.
   */
  async createMany(principal: WorkspacePrincipal, bodies: CreateMonitorDto[], origin: string): Promise<MonitorDto[]> {
    const checkedHosts = new Set<string>();
    const schedules = bodies.map(creationKind);
    const parents = await Promise.all(bodies.map((body) => this.parentFor(null, body.parent_id)));
    for (const body of bodies) {
      this.knownRegions(body.regions ?? [this.config.regions[0]]);
      this.assertStatusRange(body.expected_status);
      assertionsOf(body.mode ?? 'http', body.assertions);
      if (body.url === undefined) continue;
      // Pages of one site share a host: its addresses are looked up once.
      const { host } = new URL(body.url);
      if (!checkedHosts.has(host)) await assertPublicTarget(body.url, 'url', this.config.allowPrivateTargets);
      checkedHosts.add(host);
    }
    const monitors = await this.planGate.withRoom(principal.workspace.id, 'monitors', Monitor, bodies.length, (tx) =>
      bodies.map((body, index) => {
        const schedule = schedules[index];
        const monitor = tx.create(Monitor, {
          workspace: principal.workspace.id,
          createdBy: principal.userId,
          name: body.name,
          url: body.url ?? null,
          // A heartbeat's missed pings are recorded by the first region's workers, like any check.
          regions: this.knownRegions(body.regions ?? [this.config.regions[0]]),
          ...(schedule
            ? {
                heartbeat: schedule,
                heartbeatToken: newPingToken(),
                intervalSeconds: scheduleIntervalSeconds(schedule),
              }
            : {}),
          ...(body.mode ? { mode: body.mode } : {}),
          ...(body.interval_seconds ? { intervalSeconds: body.interval_seconds } : {}),
          ...(body.timeout_seconds ? { timeoutSeconds: body.timeout_seconds } : {}),
          ...(body.expected_status
            ? { expectedStatusMin: body.expected_status.min, expectedStatusMax: body.expected_status.max }
            : {}),
          keyword: body.keyword ?? null,
          selector: body.selector ?? null,
          parent: parents[index] ?? null,
          trackedValues: this.trackedValueSpecs(body.tracked_values ?? []),
          ...(body.visual_threshold === undefined ? {} : { visualThreshold: body.visual_threshold }),
          assertions: assertionsOf(body.mode ?? 'http', body.assertions),
        });
        if (body.paused) pause(monitor);
        else monitor.nextCheckAt = this.firstCheckAt(monitor);
        return monitor;
      }),
    );
    return monitors.map((monitor) => presentMonitor(monitor, origin));
  }

  async get(id: string, origin: string): Promise<MonitorDto> {
    return presentMonitor(await this.owned(id), origin);
  }

  async update(id: string, body: UpdateMonitorDto, origin: string): Promise<MonitorDto> {
    // One transaction: the lock parentFor takes for a new parent is held until that parent is committed.
    return this.em.transactional(() => this.updateIn(id, body, origin));
  }

  private async updateIn(id: string, body: UpdateMonitorDto, origin: string): Promise<MonitorDto> {
    const monitor = await this.owned(id);
    const schedule = updatedKind(monitor, body);
    const parent = await this.parentFor(monitor, body.parent_id);
    if (parent !== undefined) monitor.parent = parent;
    this.assertStatusRange(body.expected_status);
    if (schedule && !sameSchedule(schedule, monitor.heartbeat)) this.reschedule(monitor, schedule);
    if (body.url !== undefined && body.url !== monitor.url) {
      await assertPublicTarget(body.url, 'url', this.config.allowPrivateTargets);
      monitor.url = body.url;
      // Another address serves another certificate: the old one and what its rules fired for are forgotten.
      monitor.certificate = null;
      await this.em.nativeUpdate(
        AlertRule,
        { monitor, event: 'certificate_expiry' },
        { state: 'ok', notifiedAt: null, firedFor: null },
      );
    }
    if (body.name !== undefined) monitor.name = body.name;
    if (body.mode !== undefined) monitor.mode = body.mode;
    if (body.timeout_seconds !== undefined) monitor.timeoutSeconds = body.timeout_seconds;
    if (body.expected_status !== undefined) {
      monitor.expectedStatusMin = body.expected_status.min;
      monitor.expectedStatusMax = body.expected_status.max;
    }
    if (body.keyword !== undefined) monitor.keyword = body.keyword;
    if (body.selector !== undefined) monitor.selector = body.selector;
    if (body.tracked_values !== undefined) monitor.trackedValues = this.trackedValueSpecs(body.tracked_values);
    if (body.visual_threshold !== undefined) monitor.visualThreshold = body.visual_threshold;
    monitor.assertions = assertionsOf(
      monitor.mode,
      body.assertions ?? monitor.assertions,
      body.assertions !== undefined,
    );
    if (body.interval_seconds !== undefined && body.interval_seconds !== monitor.intervalSeconds) {
      monitor.intervalSeconds = body.interval_seconds;
      if (!monitor.paused) monitor.nextCheckAt = this.firstCheckAt(monitor);
    }
    if (body.paused === true && !monitor.paused) {
      pause(monitor);
    } else if (body.paused === false && monitor.paused) {
      monitor.paused = false;
      monitor.status = 'pending';
      monitor.regionStatus = {};
      monitor.nextCheckAt = this.firstCheckAt(monitor);
    }
    await this.em.flush();
    return presentMonitor(monitor, origin);
  }

  /**
   * Gives a heartbeat monitor its new schedule. Other times count from now: a job is not late for a slot it was not
   * told of. A new grace alone moves the pending deadline by the difference: the ping is expected when it was.
   */
  private reschedule(monitor: Monitor, schedule: HeartbeatSchedule): void {
    const previous = monitor.heartbeat;
    monitor.heartbeat = schedule;
    monitor.intervalSeconds = scheduleIntervalSeconds(schedule);
    if (monitor.paused) return;
    monitor.nextCheckAt =
      previous && monitor.nextCheckAt && sameTimes(schedule, previous)
        ? new Date(monitor.nextCheckAt.getTime() + (schedule.graceSeconds - previous.graceSeconds) * 1000)
        : this.firstCheckAt(monitor);
  }

  /**
   * The parent a monitor may be given: one of the workspace's monitors, neither the monitor itself nor one depending
   * on it (directly or through others). `undefined` when none was asked for, null to remove it. `monitor` is null for
   * a new one, which nothing depends on yet.
   *
   * Two changes at once (A's parent to B, B's to A) would each see no cycle and commit one together: an existing
   * monitor's new parent is checked under the workspace's dependency lock, which its caller's transaction holds until
   * the parent is committed, so the second check sees the first's parent.
   */
  private async parentFor(monitor: Monitor | null, parentId: string | null | undefined) {
    if (parentId === undefined || parentId === null) return parentId;
    const monitorId = monitor?.id ?? null;
    if (parentId === monitorId) throw ValidationFailed.field('parent_id', 'must be another monitor than this one');
    if (monitor) await lockUntilCommit(this.em, `monitor-parents:${monitor.workspace.id}`);
    // Read now, not from the unit of work: a monitor it loaded before the lock may have had its parent changed since.
    const parent = await this.em.findOne(Monitor, { id: parentId }, { refresh: true });
    if (!parent) throw ValidationFailed.field('parent_id', 'no such monitor in this workspace');
    const seen = new Set([parentId]);
    for (let ancestor = parent.parent?.id; ancestor && !seen.has(ancestor);) {
      if (ancestor === monitorId) {
        throw ValidationFailed.field('parent_id', 'depends on this monitor: the two would wait for each other');
      }
      seen.add(ancestor);
      ancestor = (await this.em.findOne(Monitor, { id: ancestor }, { refresh: true }))?.parent?.id;
    }
    return parent;
  }

  /** Deletes the monitor with what was recorded for it, then its screenshots (no row names them any more). */
  async delete(id: string): Promise<void> {
    const deleted = await this.em.nativeDelete(Monitor, { id });
    if (!deleted) throw new NotFound('Monitor');
    await this.artifacts.deleteFolder(monitorFolder(id)).catch((error: unknown) => {
      this.logger.error(
        { err: error },
        `monitor ${id} is deleted, but its screenshots under ${monitorFolder(id)}/ are not`,
      );
    });
  }

  async setRegions(id: string, regions: string[], origin: string): Promise<MonitorDto> {
    const monitor = await this.owned(id);
    if (monitor.mode === 'heartbeat') {
      throw new DomainError('no_page', 'A heartbeat monitor is pinged, not checked from regions.');
    }
    monitor.regions = this.knownRegions(regions);
    monitor.regionStatus = Object.fromEntries(
      Object.entries(monitor.regionStatus).filter(([region]) => monitor.regions.includes(region)),
    );
    await this.em.flush();
    return presentMonitor(monitor, origin);
  }

  /**
   * Checks now in every region of the monitor, through the regions' workers, and waits for the results: the API
   * process need not run checks itself, and a region's check runs where that region's workers are.
   */
  async checkNow(id: string, origin: string): Promise<CheckRunDto> {
    const monitor = await this.owned(id);
    if (monitor.mode === 'heartbeat') {
      throw new DomainError('no_page', 'A heartbeat monitor is not checked: its job pings it.');
    }
    const scheduledFor = new Date().toISOString();
    const jobs: MonitorCheckJob[] = monitor.regions.map((region) => ({
      monitorId: monitor.id,
      region,
      scheduledFor,
      trigger: 'manual',
    }));
    await this.queues.enqueue(jobs);
    const deadline = Date.now() + monitor.timeoutSeconds * 1000 + CHECK_NOW_GRACE_MS;
    for (;;) {
      const results = await this.em
        .fork()
        .find(
          MonitorCheck,
          { monitor: monitor.id, scheduledFor: new Date(scheduledFor) },
          { orderBy: { region: 'asc' } },
        );
      if (results.length === jobs.length) {
        const current = await this.em.fork().findOneOrFail(Monitor, { id: monitor.id });
        return { monitor: presentMonitor(current, origin), results: results.map(presentCheck) };
      }
      if (Date.now() > deadline) {
        const missing = jobs.filter((job) => !results.some((result) => result.region === job.region));
        throw new DomainError(
          'check_timed_out',
          `No worker finished the check in ${missing.map((job) => job.region).join(', ')} in time; it stays queued and its result will be recorded.`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, CHECK_NOW_POLL_MS));
    }
  }

  async uptime(id: string, query: UptimeQuery): Promise<UptimeDto> {
    const monitor = await this.owned(id);
    if (query.region !== undefined && !monitor.regions.includes(query.region)) {
      throw ValidationFailed.field('region', `must be one of the monitor's regions: ${monitor.regions.join(', ')}`);
    }
    return this.uptimeReader.read(this.em, monitor.id, query.region ?? null, query.history ?? '24h');
  }

  async enableBadge(id: string): Promise<BadgeDto> {
    const monitor = await this.owned(id);
    monitor.badgeToken ??= randomBytes(18).toString('base64url');
    await this.em.flush();
    return { enabled: true, url: badgePath(monitor.badgeToken) };
  }

  async disableBadge(id: string): Promise<void> {
    const monitor = await this.owned(id);
    monitor.badgeToken = null;
    await this.em.flush();
  }

  /** The SVG of an enabled badge, in shields.io's look. */
  async badgeImage(token: string, style: BadgeStyle = 'flat'): Promise<string> {
    // A public route: the unguessable token alone names the monitor, whatever its workspace.
    const monitor = await acrossWorkspaces(this.em).findOne(
      Monitor,
      { badgeToken: token },
      { fields: ['name', 'status'] },
    );
    if (!monitor) throw new NotFound('Badge');
    const look = BADGE_LOOK[monitor.status as MonitorStatus];
    const label = monitor.name.length > 40 ? `${monitor.name.slice(0, 39)}…` : monitor.name;
    // Loaded with the first badge: its font metrics cost about 60 ms of CPU at every start otherwise.
    const { makeBadge } = await import('badge-maker');
    return makeBadge({ label, message: look.message, color: look.color, style });
  }

  async checks(id: string, query: ChecksQuery): Promise<Page<CheckResultDto>> {
    const monitor = await this.owned(id);
    const [checks, total] = await this.em.findAndCount(
      MonitorCheck,
      { monitor, ...(query.region ? { region: query.region } : {}) },
      { orderBy: { checkedAt: 'desc', id: 'asc' }, ...pageWindow(query) },
    );
    return pageOf(checks.map(presentCheck), total, query);
  }

  async trackedValues(id: string, query: TrackedValuesQuery): Promise<Page<TrackedValueDto>> {
    const monitor = await this.owned(id);
    const { offset, limit } = pageWindow(query);
    const [readings, total] = await this.em.findAndCount(
      TrackedValueReadingRecord,
      { monitor, ...(query.name ? { name: query.name } : {}) },
      { orderBy: { capturedAt: 'desc', name: 'asc' }, offset, limit },
    );
    return pageOf(readings.map(presentReading), total, query);
  }

  /** One of the workspace's monitors (the request's scope does the filtering), or a 404. */
  async owned(id: string): Promise<Monitor> {
    const monitor = await this.em.findOne(Monitor, { id });
    if (!monitor) throw new NotFound('Monitor');
    return monitor;
  }

  private knownRegions(regions: string[]): string[] {
    const unknown = regions.filter((region) => !this.config.regions.includes(region));
    if (unknown.length) {
      throw ValidationFailed.field(
        'regions',
        `unknown region ${unknown.join(', ')}; this service checks from ${this.config.regions.join(', ')}`,
      );
    }
    return regions;
  }

  private assertStatusRange(range: ExpectedStatusDto | undefined): void {
    if (range && range.min > range.max) {
      throw ValidationFailed.field('expected_status', 'min must not be greater than max');
    }
  }

  private trackedValueSpecs(specs: { name: string; selector: string; kind: 'price' | 'number' | 'text' }[]) {
    const names = new Set<string>();
    for (const [index, spec] of specs.entries()) {
      if (names.has(spec.name)) throw ValidationFailed.field(`tracked_values[${index}].name`, 'must be unique');
      names.add(spec.name);
    }
    return specs.map(({ name, selector, kind }) => ({ name, selector, kind }));
  }

  /** A new or resumed monitor's first check, spread at random; for a heartbeat monitor, its first ping's deadline. */
  private firstCheckAt(monitor: Monitor): Date {
    if (monitor.heartbeat) return pingDeadline(monitor.heartbeat, new Date());
    const spread = Math.min(FIRST_CHECK_SPREAD_MS, monitor.intervalSeconds * 1000);
    return new Date(Date.now() + Math.floor(Math.random() * spread));
  }
}

/** A paused monitor is not scheduled, and says so in its status. */
function pause(monitor: Monitor): void {
  monitor.paused = true;
  monitor.status = 'paused';
  monitor.nextCheckAt = null;
}

/**
 * The assertions to store: each checked (errors name `assertions[i].field`), and none on a browser monitor, whose
 * render has no raw response to assert on. `named` says whether the request named them (a mode change alone to
 * browser with assertions left is refused as well).
 */
function assertionsOf(
  mode: MonitorMode,
  input: readonly MonitorAssertionInputDto[] | readonly ResponseAssertion[] = [],
  named = true,
): ResponseAssertion[] {
  const assertions = input.map((assertion) => ({
    type: assertion.type,
    property: assertion.property ?? null,
    operator: assertion.operator,
    value: assertion.value ?? null,
  }));
  if (mode === 'browser' && assertions.length) {
    throw ValidationFailed.field(
      named ? 'assertions' : 'mode',
      named
        ? 'apply to http monitors only: a browser monitor renders the page and has no raw response to assert on'
        : 'cannot be browser while the monitor has assertions: remove them (assertions: []) in the same request',
    );
  }
  const problems = assertions.flatMap((assertion, index) =>
    assertionProblems(assertion).map((problem) => ({ ...problem, field: `assertions[${index}].${problem.field}` })),
  );
  if (problems.length) throw new ValidationFailed(problems);
  return assertions;
}
