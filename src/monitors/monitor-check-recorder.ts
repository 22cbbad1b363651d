import { LockMode } from '@mikro-orm/core';
import { type EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import DataLoader from 'dataloader';
import {
  type ChangeSummary,
  diffText,
  heuristicSummary,
  isEmptyDiff,
  summarizeChange,
  type TextDiff,
  valueChangeSummary,
} from '../../libs/change-summary';
import type { ServedCertificate } from '../../libs/net-guard';
import type { ExtractedContent, ResponseAssertion, TrackedValueSpec } from '../../libs/page-check';
import { ArtifactStore } from '../artifacts/artifact-store';
import { Change, type MetadataFieldChange } from '../changes/entities/change.entity';
import { raiseAlerts } from '../alerts/alert-evaluator';
import type { IncidentRule } from '../alerts/rule-transition';
import { inWorkspace, workspaceUnitOfWork } from '../common/tenancy/workspace-scope';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { whenDatabaseAnswers } from '../db/database-outage';
import { monitorCheckJobId, type MonitorCheckJob } from '../queues/jobs';
import { MonitorCheck } from './entities/monitor-check.entity';
import { stableText } from '../../libs/compare';
import {
  Monitor,
  monitorFolder,
  type MonitorMode,
  type PageMetadata,
  type Volatility,
  type MonitorStatus,
  type RegionStatus,
} from './entities/monitor.entity';
import { TrackedValueReadingRecord } from './entities/tracked-value-reading.entity';
import { type AssessedMonitor, type CheckAssessment, CheckAssessor } from './check-assessment';
import type { PageObservation } from './monitor-check-runner';
import { deriveStatus, isRoutineCheck, type MonitorAsRead } from './routine-check';
import { expectedAtOf, type HeartbeatSchedule, missedMessage, pingDeadline, slotWasPinged } from './heartbeat-schedule';
import { type CheckResult, RoutineCheckWriter, MONITOR_RULES_SQL } from './routine-check-writer';
import { type CoveringWindow, maintenanceAt } from '../maintenance/maintenance-calendar';

/** The monitor as a check reads it, its alert rules included, and the result already recorded for its slot, if any. */
type MonitorToCheck = AssessedMonitor &
  MonitorAsRead &
  Pick<Monitor, 'id' | 'heartbeat' | 'heartbeatToken' | 'heartbeatPingedAt' | 'heartbeatStartedAt'> & {
    rulesFingerprint: string;
    recordedCheckId: string | null;
    /** The maintenance windows covering the monitor that may be under way now (which one is, the calendar says). */
    maintenance: CoveringWindow[];
  };

/** What a heartbeat's ping or missed slot moves besides the check: the next deadline, and the last ping. */
interface HeartbeatMove {
  nextCheckAt: Date;
  /** The ping's time; null for a missed slot (which a ping that came meanwhile makes moot). */
  pingedAt: Date | null;
}

/** A ping from a heartbeat monitor's job: it ended (well or not), with its exit code and output if it said them. */
export interface HeartbeatPing {
  failed: boolean;
  exitCode: number | null;
  output: string | null;
  receivedAt: Date;
}

/**
 * Pings' monitors are read together: the tokens of the pings that arrive while this many reads are under way are read
 * by the next one, in one statement (a ping's read is most of what PostgreSQL does for it).
 */
const PING_READS_IN_FLIGHT = 2;
const PING_READ_BATCH = 500;

/** How much of a failed ping's output its result keeps. */
const PING_OUTPUT_CHARS = 1000;
/** The longest run time a result stores (its integer column's limit). */
const MAX_RUN_MS = 2_147_483_647;

/**
 * Up to `max` characters of a job's output that PostgreSQL stores as text and jsonb: no NUL, no lone surrogate (a
 * cut never splits a character).
 */
function storableText(text: string, max: number): string {
  return [...text.replaceAll('\u0000', '')].slice(0, max).join('').toWellFormed();
}

/**
 * The maintenance windows of the monitor `m`'s workspace that cover it and may be under way now or later (those with
 * a next transition): only the calendar's fields, as jsonb. Whether one is under way is the calendar's question
 * (`maintenanceAt`), asked in code, never here.
 */
const MONITOR_MAINTENANCE_SQL = `(select coalesce(jsonb_agg(jsonb_build_object(
    'id', w.id, 'mode', w.mode, 'startsAt', w.starts_at, 'durationMinutes', w.duration_minutes,
    'recurrence', w.recurrence, 'timezone', w.timezone, 'endedAt', w.ended_at)), '[]'::jsonb)
  from maintenance_windows w
  where w.workspace_id = m.workspace_id and (w.all_monitors or m.id = any(w.monitor_ids))
    -- a window with nothing to come and nothing under way has no next transition
    and w.next_transition_at is not null)`;

/** An alert rule as the check's statement reads it (`MONITOR_RULES_SQL`). */
type RuleRow = Omit<IncidentRule, 'notifiedAt'> & { notifiedAtMs: number | null; held: boolean };

interface MonitorToCheckRow {
  id: string;
  workspace_id: string;
  url: string | null;
  mode: MonitorMode;
  timeout_seconds: number;
  expected_status_min: number;
  expected_status_max: number;
  keyword: string | null;
  selector: string | null;
  tracked_values: TrackedValueSpec[];
  regions: string[];
  status: MonitorStatus;
  paused: boolean;
  region_status: RegionStatus;
  content_hash: string | null;
  screenshot_key: string | null;
  metadata: PageMetadata | null;
  certificate: ServedCertificate | null;
  volatile: Volatility;
  visual_threshold: number;
  assertions: ResponseAssertion[];
  heartbeat: HeartbeatSchedule | null;
  heartbeat_token: string | null;
  heartbeat_pinged_at: Date | null;
  heartbeat_started_at: Date | null;
  created_at: Date;
  rules: RuleRow[];
  rules_fingerprint: string;
  recorded_check_id: string | null;
  maintenance: (Omit<CoveringWindow, 'startsAt' | 'endedAt'> & { startsAt: string; endedAt: string | null })[];
}

/** A content change prepared before the monitor's row is locked: the summary may take a model's seconds. */
interface ContentChangeDraft {
  beforeHash: string;
  diff: TextDiff;
  summary: ChangeSummary;
}

/**
 * Runs a check job and records what it saw: the result, the hourly rollup, the monitor's status, tracked-value
 * readings and any changes, in one transaction holding the monitor's row lock. Checks of one monitor from several
 * regions therefore see each other's content in order, and a retried job finds its result and records nothing twice.
 */
@Injectable()
export class MonitorCheckRecorder {
  private readonly logger = new Logger(MonitorCheckRecorder.name);
  private pingReads = 0;
  private readonly pingReadsWaiting: (() => void)[] = [];
  /** The monitor of each token pinged, read with those of the other pings waiting (never cached: state moves). */
  private readonly pingedMonitors = new DataLoader<string, MonitorToCheck | null>((tokens) => this.readPinged(tokens), {
    cache: false,
    maxBatchSize: PING_READ_BATCH,
    batchScheduleFn: (read) => {
      if (this.pingReads < PING_READS_IN_FLIGHT) setImmediate(read);
      else this.pingReadsWaiting.push(read);
    },
  });

  constructor(
    private readonly orm: MikroORM,
    private readonly assessor: CheckAssessor,
    private readonly store: ArtifactStore,
    private readonly routine: RoutineCheckWriter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Runs the job's check unless it is moot; returns the recorded result's id, or null when nothing was due. */
  async run(job: MonitorCheckJob): Promise<string | null> {
    const scheduledFor = new Date(job.scheduledFor);
    // PostgreSQL restarting must not cost the slot: the job's two quick attempts would both fail while it is away,
    // and nothing claims a slot again. So the reads wait for it, and so does the recording of a check already made.
    const waitForDatabase = {
      onWait: (error: unknown) =>
        this.logger.warn({ err: error }, `PostgreSQL is unreachable: check ${monitorCheckJobId(job)} waits for it`),
    };
    // The monitor to check, or, when the job is moot or already recorded, what run() answers instead.
    const due = await whenDatabaseAnswers(async (): Promise<MonitorToCheck | { answer: string | null }> => {
      const [monitor] = await this.monitorsToCheck('id', [job.monitorId], { region: job.region, scheduledFor });
      if (!monitor) return { answer: null };
      if (job.trigger === 'scheduled' && (monitor.paused || !monitor.regions.includes(job.region))) {
        return { answer: null };
      }
      return monitor.recordedCheckId ? { answer: monitor.recordedCheckId } : monitor;
    }, waitForDatabase);
    if ('answer' in due) return due.answer;
    const monitor = due;
    if (monitor.heartbeat) return this.recordMissedSlot(monitor, job, monitor.heartbeat);
    // A window pausing checks skips the scheduled ones (a check asked for by hand still runs). A heartbeat has nothing
    // to pause: its missed slots are recorded, muted, above.
    if (job.trigger === 'scheduled' && maintenanceAt(monitor.maintenance, new Date())?.mode === 'pause_checks') {
      return null;
    }
    return this.record(monitor, job, new Date(), await this.assessor.assess(monitor));
  }

  /**
   * Records a heartbeat ping as its monitor's check: up for a success, down for a failure, the run time since the
   * job said it started. Answers null for an unknown token, `paused` for a paused monitor (nothing recorded).
   */
  async recordPing(token: string, ping: HeartbeatPing): Promise<'recorded' | 'paused' | null> {
    const monitor = await this.pingedMonitors.load(token);
    if (!monitor?.heartbeat) return null;
    if (monitor.paused) return 'paused';
    const { receivedAt } = ping;
    const startedAt = monitor.heartbeatStartedAt;
    const message = ping.failed
      ? storableText(
          [`the job failed${ping.exitCode === null ? '' : ` with exit code ${ping.exitCode}`}`, ping.output?.trim()]
            .filter(Boolean)
            .join(': '),
          PING_OUTPUT_CHARS,
        )
      : null;
    const observation = heartbeatObservation({
      ok: !ping.failed,
      failure: ping.failed ? 'heartbeat_failed' : null,
      message,
      // A start left over from a run that never ended could be weeks old: the column holds at most ~24 days.
      responseTimeMs:
        startedAt && startedAt <= receivedAt ? Math.min(receivedAt.getTime() - startedAt.getTime(), MAX_RUN_MS) : 0,
    });
    const job: MonitorCheckJob = {
      monitorId: monitor.id,
      region: monitor.regions[0],
      scheduledFor: receivedAt.toISOString(),
      trigger: 'ping',
    };
    const move = { nextCheckAt: pingDeadline(monitor.heartbeat, receivedAt), pingedAt: receivedAt };
    await this.record(monitor, job, receivedAt, assessmentOf(observation), move);
    return 'recorded';
  }

  /** Records a heartbeat slot whose deadline passed without a ping: down, with what was expected when. */
  private async recordMissedSlot(
    monitor: MonitorToCheck,
    job: MonitorCheckJob,
    schedule: HeartbeatSchedule,
  ): Promise<string | null> {
    const deadline = new Date(job.scheduledFor);
    if (slotWasPinged(schedule, deadline, monitor.heartbeatPingedAt)) return null;
    const observation = heartbeatObservation({
      ok: false,
      failure: 'heartbeat_missed',
      message: missedMessage(schedule, deadline, monitor.heartbeatPingedAt),
      responseTimeMs: 0,
    });
    const move = { nextCheckAt: pingDeadline(schedule, expectedAtOf(schedule, deadline)), pingedAt: null };
    return this.record(monitor, job, new Date(), assessmentOf(observation), move);
  }

  /**
   * Records what a check (or a heartbeat's ping or missed slot) found: through the routine writer when it changes
   * nothing but counts, otherwise in a transaction of its own under the monitor's row lock. Returns the result's id,
   * or null for a missed slot a ping made moot meanwhile.
   */
  private async record(
    monitor: MonitorToCheck,
    job: MonitorCheckJob,
    checkedAt: Date,
    assessment: CheckAssessment,
    heartbeat?: HeartbeatMove,
  ): Promise<string | null> {
    const scheduledFor = new Date(job.scheduledFor);
    const waitForDatabase = {
      onWait: (error: unknown) =>
        this.logger.warn({ err: error }, `PostgreSQL is unreachable: check ${monitorCheckJobId(job)} waits for it`),
    };
    const { observation, content } = assessment;
    const maintenanceWindowId = maintenanceAt(monitor.maintenance, checkedAt)?.id ?? null;
    const seen = {
      region: job.region,
      ok: observation.ok,
      responseTimeMs: observation.responseTimeMs,
      checkedAt,
      content,
      metadata: assessment.metadata,
      certificate: observation.certificate,
      maintenanceWindowId,
      visualChanged: assessment.visual !== null,
      learned: assessment.learned,
    };
    if (isRoutineCheck(monitor, seen)) {
      const routine = await this.writeRoutine(monitor, job, checkedAt, observation, maintenanceWindowId, heartbeat);
      if (routine) return routine;
    }
    const draft = assessment.contentChanged && content ? await this.draft(monitor, assessment, content) : null;
    // Files before the rows that name them. A browser check keeps its screenshot when it becomes the monitor's
    // "before" image: the first, and whenever the content or the picture changed.
    const keepScreenshot =
      observation.screenshot !== null &&
      (monitor.screenshotKey === null || assessment.contentChanged || assessment.visual !== null);
    const screenshotKey = keepScreenshot ? `${monitorFolder(monitor.id)}/${randomUUID()}.png` : null;
    if (screenshotKey && observation.screenshot) await this.store.put(screenshotKey, observation.screenshot);
    const diffKey = assessment.visual?.diffPng ? `${monitorFolder(monitor.id)}/diff-${randomUUID()}.png` : null;
    if (diffKey && assessment.visual?.diffPng) await this.store.put(diffKey, assessment.visual.diffPng);

    // Safe to repeat: a commit whose answer the restart cut off may have gone through, and is found under the lock.
    return whenDatabaseAnswers(
      () =>
        workspaceUnitOfWork(this.orm.em, monitor.workspaceId).transactional(async (tx) => {
          const locked = await tx.findOneOrFail(
            Monitor,
            { id: monitor.id },
            { populate: ['contentText'], lockMode: LockMode.PESSIMISTIC_WRITE },
          );
          const again = await tx.findOne(MonitorCheck, { monitor: locked, region: job.region, scheduledFor });
          if (again) return again.id;
          if (heartbeat && !moveHeartbeat(locked, heartbeat, scheduledFor)) return null;

          const check = tx.create(MonitorCheck, {
            monitor: locked,
            ...checkResult(job, checkedAt, observation, maintenanceWindowId),
          });
          await this.addToRollup(tx, check);
          this.updateStatus(locked, job.region, observation.ok, checkedAt);
          if (assessment.learned) locked.volatile = assessment.volatile;
          if (observation.certificate) locked.certificate = observation.certificate;
          // A check that ran alongside (another region's, a scheduled one beside one asked for by hand) may have
          // replaced the screenshot this one was compared with, recording the same move: this judgement is then stale,
          // and the screenshot stored stays the one the next check compares with.
          const comparedWithStored = locked.screenshotKey === monitor.screenshotKey;
          const changes = content
            ? [
                ...this.recordContent(tx, locked, check, content, draft, screenshotKey),
                ...this.recordTrackedValues(tx, locked, check, content),
                ...this.recordMetadata(tx, locked, check, assessment),
                ...(comparedWithStored ? this.recordVisual(tx, locked, check, assessment, screenshotKey, diffKey) : []),
              ]
            : [];
          if (
            screenshotKey &&
            (comparedWithStored || changes.some((change) => change.afterScreenshotKey === screenshotKey))
          ) {
            locked.screenshotKey = screenshotKey;
          }
          await raiseAlerts(tx, locked, check, changes);
          await tx.flush();
          return check.id;
        }),
      waitForDatabase,
    );
  }

  /**
   * Writes a check that changes nothing but counts (`isRoutineCheck`) through the routine writer's shared statement;
   * returns its id, or null when it must be recorded the full way (the writer found the monitor or its rules moved
   * since the check read them, or the slot already recorded).
   */
  private async writeRoutine(
    monitor: MonitorToCheck,
    job: MonitorCheckJob,
    checkedAt: Date,
    observation: PageObservation,
    maintenanceWindowId: string | null,
    heartbeat: HeartbeatMove | undefined,
  ): Promise<string | null> {
    return this.routine.write({
      monitorId: monitor.id,
      ...checkResult(job, checkedAt, observation, maintenanceWindowId),
      heartbeat: heartbeat ?? null,
      seen: {
        heartbeatPingedAt: monitor.heartbeatPingedAt,
        status: monitor.status,
        regionStatus: monitor.regionStatus,
        regions: monitor.regions,
        contentHash: monitor.contentHash,
        certificate: monitor.certificate,
        rulesFingerprint: monitor.rulesFingerprint,
      },
    });
  }

  /**
   * What a check needs of its monitor (its alert rules and their fingerprint included, to decide whether the check is
   * routine), and the result already recorded for the slot, in one statement without the ORM: this runs for every
   * check, and most checks need nothing more. It is the job's own row, read across workspaces to learn whose it is:
   * everything after it runs in the monitor's workspace.
   */
  /** The monitors of pinged tokens, in the tokens' order (null for an unknown one), PostgreSQL's outages waited out. */
  private async readPinged(tokens: readonly string[]): Promise<(MonitorToCheck | null)[]> {
    this.pingReads += 1;
    try {
      const monitors = await whenDatabaseAnswers(() => this.monitorsToCheck('token', [...new Set(tokens)], null));
      const byToken = new Map(monitors.map((monitor) => [monitor.heartbeatToken, monitor]));
      return tokens.map((token) => byToken.get(token) ?? null);
    } finally {
      this.pingReads -= 1;
      this.pingReadsWaiting.shift()?.();
    }
  }

  /** The monitors with these ids or ping tokens, each with its rules, maintenance and the slot's recorded check. */
  private async monitorsToCheck(
    by: 'id' | 'token',
    values: string[],
    slot: { region: string; scheduledFor: Date } | null,
  ): Promise<MonitorToCheck[]> {
    const rows = await this.orm.em.getConnection().execute<MonitorToCheckRow[]>(
      `select m.id, m.workspace_id, m.url, m.mode, m.timeout_seconds, m.expected_status_min, m.expected_status_max, m.keyword,
              m.selector, m.tracked_values, m.regions, m.status, m.paused, m.region_status, m.content_hash,
              m.screenshot_key, m.metadata, m.certificate, m.volatile, m.visual_threshold, m.assertions, m.created_at,
              m.heartbeat, m.heartbeat_token, m.heartbeat_pinged_at, m.heartbeat_started_at,
              rules.list as rules, md5(rules.list::text) as rules_fingerprint, ${MONITOR_MAINTENANCE_SQL} as maintenance,
              (select c.id from monitor_checks c
                where c.monitor_id = m.id and c.region = ? and c.scheduled_for = ?) as recorded_check_id
         from monitors m cross join lateral (select ${MONITOR_RULES_SQL} as list) rules
        where ${by === 'id' ? 'm.id' : 'm.heartbeat_token'} in (?)`,
      [slot?.region ?? null, slot?.scheduledFor.toISOString() ?? null, values],
      'all',
    );
    return rows.map((row) => ({
      id: row.id,
      workspaceId: row.workspace_id,
      url: row.url,
      mode: row.mode,
      timeoutSeconds: row.timeout_seconds,
      expectedStatusMin: row.expected_status_min,
      expectedStatusMax: row.expected_status_max,
      keyword: row.keyword,
      selector: row.selector,
      trackedValues: row.tracked_values,
      regions: row.regions,
      status: row.status,
      paused: row.paused,
      regionStatus: row.region_status,
      contentHash: row.content_hash,
      screenshotKey: row.screenshot_key,
      metadata: row.metadata,
      certificate: row.certificate,
      volatile: row.volatile,
      visualThreshold: row.visual_threshold,
      assertions: row.assertions,
      heartbeat: row.heartbeat,
      heartbeatToken: row.heartbeat_token,
      heartbeatPingedAt: row.heartbeat_pinged_at && new Date(row.heartbeat_pinged_at),
      heartbeatStartedAt: row.heartbeat_started_at && new Date(row.heartbeat_started_at),
      createdAt: new Date(row.created_at),
      rules: row.rules.map(({ notifiedAtMs, ...rule }) => ({
        ...rule,
        notifiedAt: notifiedAtMs === null ? null : new Date(notifiedAtMs),
      })),
      rulesFingerprint: row.rules_fingerprint,
      recordedCheckId: row.recorded_check_id,
      maintenance: row.maintenance.map((window) => ({
        ...window,
        startsAt: new Date(window.startsAt),
        endedAt: window.endedAt === null ? null : new Date(window.endedAt),
      })),
    }));
  }

  /** The content change's diff (of stable texts) and summary, prepared before the lock. */
  private async draft(
    monitor: MonitorToCheck,
    assessment: CheckAssessment,
    content: ExtractedContent,
  ): Promise<ContentChangeDraft | null> {
    const diff = diffText(assessment.storedText ?? '', content.text);
    const summary = await summarizeChange(diff, {
      ...(this.config.summaryApiUrl
        ? {
            llm: {
              url: this.config.summaryApiUrl,
              model: this.config.summaryModel,
              timeoutMs: 20_000,
              ...(this.config.summaryApiKey ? { apiKey: this.config.summaryApiKey } : {}),
            },
          }
        : {}),
      onLlmError: (error) => this.logger.warn({ err: error }, 'the summary endpoint failed; heuristic summary used'),
    });
    return summary && monitor.contentHash ? { beforeHash: monitor.contentHash, diff, summary } : null;
  }

  /** Adds the check to its hour's rollup: to the counted checks, or, made during maintenance, to those apart. */
  private async addToRollup(tx: EntityManager, check: MonitorCheck): Promise<void> {
    const counted = check.maintenanceWindowId === null;
    await tx.execute(
      `insert into monitor_check_rollups (monitor_id, region, hour, checks, passed, response_ms_sum, maintenance)
       select m.id, ?, date_trunc('hour', ?::timestamptz), ?, ?, ?, ?
         from monitors m where m.id = ? and ${inWorkspace(tx, 'm.workspace_id')}
       on conflict (monitor_id, region, hour) do update set
         checks = monitor_check_rollups.checks + excluded.checks,
         passed = monitor_check_rollups.passed + excluded.passed,
         response_ms_sum = monitor_check_rollups.response_ms_sum + excluded.response_ms_sum,
         maintenance = monitor_check_rollups.maintenance + excluded.maintenance`,
      [
        check.region,
        check.checkedAt.toISOString(),
        counted ? 1 : 0,
        counted && check.ok ? 1 : 0,
        counted ? check.responseTimeMs : 0,
        counted ? 0 : 1,
        check.monitor.id,
      ],
      'run',
    );
  }

  private updateStatus(monitor: Monitor, region: string, ok: boolean, checkedAt: Date): void {
    Object.assign(monitor, deriveStatus(monitor, region, ok));
    if (!monitor.lastCheckedAt || monitor.lastCheckedAt < checkedAt) monitor.lastCheckedAt = checkedAt;
  }

  private recordContent(
    tx: EntityManager,
    monitor: Monitor,
    check: MonitorCheck,
    content: ExtractedContent,
    draft: ContentChangeDraft | null,
    screenshotKey: string | null,
  ): Change[] {
    if (content.contentHash === monitor.contentHash) return [];
    const changes: Change[] = [];
    if (monitor.contentHash !== null) {
      // Another region's check may have moved the content since the draft: then diff against what is stored now.
      const diff =
        draft?.beforeHash === monitor.contentHash
          ? draft.diff
          : diffText(stableText(monitor.contentText ?? '', monitor.volatile.lines), content.text);
      if (!isEmptyDiff(diff)) {
        const summary = draft?.beforeHash === monitor.contentHash ? draft.summary : null;
        const change = tx.create(Change, {
          workspace: monitor.workspace,
          monitor,
          kind: 'content',
          region: check.region,
          checkId: check.id,
          detectedAt: check.checkedAt,
          summary: summary ?? { text: heuristicSummary(diff), source: 'heuristic' },
          diff,
          beforeScreenshotKey: monitor.screenshotKey,
          afterScreenshotKey: screenshotKey,
        });
        changes.push(change);
      }
    }
    monitor.contentText = content.text;
    monitor.contentHash = content.contentHash;
    return changes;
  }

  /** A metadata change for the fields that held on a second look; the monitor keeps the page's metadata. */
  private recordMetadata(
    tx: EntityManager,
    monitor: Monitor,
    check: MonitorCheck,
    assessment: CheckAssessment,
  ): Change[] {
    const changes: Change[] = [];
    // Another region may have recorded the same move meanwhile: only what still differs from the stored value counts.
    const fields = monitor.metadata
      ? assessment.metadataChanges.filter(({ field, after }) => monitor.metadata![field] !== after)
      : [];
    if (fields.length > 0) {
      const metadata = fields.map(({ field, after }) => ({ field, before: monitor.metadata![field], after }));
      changes.push(
        tx.create(Change, {
          workspace: monitor.workspace,
          monitor,
          kind: 'metadata',
          region: check.region,
          checkId: check.id,
          detectedAt: check.checkedAt,
          summary: { text: metadataSummary(metadata), source: 'heuristic' },
          metadata,
        }),
      );
    }
    if (assessment.metadata) monitor.metadata = assessment.metadata;
    return changes;
  }

  /**
   * A visual change when the screenshot differed beyond the monitor's threshold on both looks, from the screenshot the
   * monitor still stores (the caller checks that under the row lock).
   */
  private recordVisual(
    tx: EntityManager,
    monitor: Monitor,
    check: MonitorCheck,
    assessment: CheckAssessment,
    screenshotKey: string | null,
    diffKey: string | null,
  ): Change[] {
    if (!assessment.visual || !screenshotKey) return [];
    const percent = (assessment.visual.mismatchRatio * 100).toFixed(1);
    return [
      tx.create(Change, {
        workspace: monitor.workspace,
        monitor,
        kind: 'visual',
        region: check.region,
        checkId: check.id,
        detectedAt: check.checkedAt,
        summary: { text: `The page looks different: ${percent}% of its pixels changed.`, source: 'heuristic' },
        visual: { mismatch_ratio: assessment.visual.mismatchRatio, threshold: monitor.visualThreshold },
        beforeScreenshotKey: monitor.screenshotKey,
        afterScreenshotKey: screenshotKey,
        diffScreenshotKey: diffKey,
      }),
    ];
  }

  private recordTrackedValues(
    tx: EntityManager,
    monitor: Monitor,
    check: MonitorCheck,
    content: ExtractedContent,
  ): Change[] {
    if (!content.trackedValues.length) return [];
    const changes: Change[] = [];
    const state = { ...monitor.trackedState };
    for (const reading of content.trackedValues) {
      tx.create(TrackedValueReadingRecord, {
        monitor,
        checkId: check.id,
        name: reading.name,
        kind: reading.kind,
        raw: reading.raw,
        amount: reading.amount,
        currency: reading.currency,
        region: check.region,
        capturedAt: check.checkedAt,
      });
      const previous = state[reading.name];
      if (previous && previous.kind === reading.kind && previous.raw !== reading.raw) {
        const value = {
          name: reading.name,
          kind: reading.kind,
          before: previous.raw,
          after: reading.raw,
          before_amount: previous.amount,
          after_amount: reading.amount,
          currency: reading.currency ?? previous.currency,
        };
        const change = tx.create(Change, {
          workspace: monitor.workspace,
          monitor,
          kind: 'value',
          region: check.region,
          checkId: check.id,
          detectedAt: check.checkedAt,
          summary: {
            text: valueChangeSummary({
              name: value.name,
              kind: value.kind,
              before: value.before,
              after: value.after,
              beforeAmount: value.before_amount,
              afterAmount: value.after_amount,
              currency: value.currency,
            }),
            source: 'heuristic',
          },
          value,
        });
        changes.push(change);
      }
      state[reading.name] = reading;
    }
    monitor.trackedState = state;
    return changes;
  }
}

/**
 * Moves a heartbeat monitor under its row lock: its next deadline, and for a ping, the last ping (a ping older than
 * the one recorded moves nothing). False for a missed slot that a ping made moot since it was read: it is not recorded.
 */
function moveHeartbeat(monitor: Monitor, move: HeartbeatMove, slot: Date): boolean {
  if (move.pingedAt === null) {
    if (monitor.heartbeat && slotWasPinged(monitor.heartbeat, slot, monitor.heartbeatPingedAt)) return false;
    monitor.nextCheckAt = monitor.paused ? null : move.nextCheckAt;
    return true;
  }
  if (monitor.heartbeatPingedAt && monitor.heartbeatPingedAt >= move.pingedAt) return true;
  monitor.heartbeatPingedAt = move.pingedAt;
  monitor.heartbeatStartedAt = null;
  monitor.nextCheckAt = monitor.paused ? null : move.nextCheckAt;
  return true;
}

/** What a heartbeat's ping or missed slot observed: no page, only a verdict, a message and the run time. */
function heartbeatObservation(
  verdict: Pick<PageObservation, 'ok' | 'failure' | 'message' | 'responseTimeMs'>,
): PageObservation {
  return {
    ...verdict,
    failedAssertions: [],
    statusCode: null,
    finalUrl: null,
    content: null,
    certificate: null,
    screenshot: null,
    metadata: null,
  };
}

/** An observation with nothing to compare: no content, metadata, screenshot or learned movement. */
function assessmentOf(observation: PageObservation): CheckAssessment {
  return {
    observation,
    content: null,
    contentChanged: false,
    volatile: { lines: [], regions: [] },
    learned: false,
    metadata: null,
    metadataChanges: [],
    visual: null,
    storedText: null,
  };
}

/** A check's result as both ways of recording it store it. */
function checkResult(
  job: MonitorCheckJob,
  checkedAt: Date,
  observation: PageObservation,
  maintenanceWindowId: string | null,
): CheckResult {
  return {
    maintenanceWindowId,
    region: job.region,
    trigger: job.trigger,
    scheduledFor: new Date(job.scheduledFor),
    checkedAt,
    ok: observation.ok,
    statusCode: observation.statusCode,
    responseTimeMs: observation.responseTimeMs,
    failure: observation.failure,
    message: observation.message,
    failedAssertions: observation.failedAssertions.length ? observation.failedAssertions : null,
    contentHash: observation.content?.contentHash ?? null,
    certificate: observation.certificate,
  };
}

const METADATA_LABELS: Record<MetadataFieldChange['field'], string> = {
  title: 'The title',
  robots: 'The robots directives',
  canonical: 'The canonical link',
  status_class: 'The HTTP status class',
};

/** 'The robots directives changed from none to "noindex".' for each field, in words. */
export function metadataSummary(fields: MetadataFieldChange[]): string {
  const shown = (value: string | null) => (value === null ? 'none' : `"${value}"`);
  return fields
    .map(({ field, before, after }) => `${METADATA_LABELS[field]} changed from ${shown(before)} to ${shown(after)}.`)
    .join(' ');
}
