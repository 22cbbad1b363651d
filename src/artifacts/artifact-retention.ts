import { MikroORM } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { BackgroundPasses } from '../common/background/background-passes';
import { acrossWorkspaces } from '../common/tenancy/workspace-scope';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ArtifactStore } from './artifact-store';

const SWEEP_INTERVAL_MS = 3_600_000;
const BATCH = 200;
const DAY_MS = 86_400_000;

export interface RetentionSweep {
  screenshots: number;
  reportFiles: number;
}

/**
 * Deletes monitor screenshots and report files older than ARTIFACT_RETENTION_DAYS, in batches, every hour (in the
 * scheduler role). Release-check evidence is never touched: it lives as long as its check. A file is deleted before
 * the reference to it is cleared, so a crash in between leaves a reference the next sweep clears, never a file that
 * nothing points to. A screenshot still needed (by a newer change, or as a monitor's current baseline) is kept.
 */
@Injectable()
export class ArtifactRetention {
  private readonly logger = new Logger(ArtifactRetention.name);

  constructor(
    private readonly orm: MikroORM,
    private readonly store: ArtifactStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    passes: BackgroundPasses,
  ) {
    // Stopped before the database closes: a batch under way finishes (its files and references) first.
    passes.every(
      this.logger,
      { name: 'artifact-retention', what: 'delete artifacts past retention', everyMs: SWEEP_INTERVAL_MS },
      (stopping) => this.sweepAndLog(stopping),
    );
  }

  /** Deletes what is past retention, batch by batch, until done or `stopping` is aborted. */
  async sweep(now = new Date(), stopping?: AbortSignal): Promise<RetentionSweep> {
    const cutoff = new Date(now.getTime() - this.config.artifactRetentionDays * DAY_MS);
    return {
      reportFiles: await this.sweepReportFiles(cutoff, stopping),
      screenshots: await this.sweepScreenshots(cutoff, stopping),
    };
  }

  private async sweepAndLog(stopping: AbortSignal): Promise<void> {
    const swept = await this.sweep(new Date(), stopping);
    if (swept.screenshots || swept.reportFiles)
      this.logger.log(
        `deleted ${swept.screenshots} screenshot(s) and ${swept.reportFiles} report file(s) past retention`,
      );
  }

  private async sweepReportFiles(cutoff: Date, stopping?: AbortSignal): Promise<number> {
    const em = acrossWorkspaces(this.orm.em);
    let deleted = 0;
    while (!stopping?.aborted) {
      const runs = await em.execute<{ id: string; artifact_key: string }[]>(
        `select id, artifact_key from report_runs where artifact_key is not null and generated_at < ? limit ${BATCH}`,
        [cutoff],
        'all',
      );
      const gone = await this.deleteFiles(runs.map((run) => run.artifact_key));
      const cleared = runs.filter((run) => gone.has(run.artifact_key));
      if (cleared.length) {
        await em.execute(
          'update report_runs set artifact_key = null where id in (?)',
          [cleared.map((run) => run.id)],
          'run',
        );
      }
      deleted += cleared.length;
      // A batch the store refused entirely would come back forever: the next sweep tries again.
      if (runs.length < BATCH || !cleared.length) break;
    }
    return deleted;
  }

  private async sweepScreenshots(cutoff: Date, stopping?: AbortSignal): Promise<number> {
    const em = acrossWorkspaces(this.orm.em);
    let deleted = 0;
    while (!stopping?.aborted) {
      const changes = await em.execute<
        { id: string; before_screenshot_key: string | null; after_screenshot_key: string | null }[]
      >(
        `select id, before_screenshot_key, after_screenshot_key from changes
         where detected_at < ? and (before_screenshot_key is not null or after_screenshot_key is not null)
         limit ${BATCH}`,
        [cutoff],
        'all',
      );
      if (!changes.length) break;
      const keys = [
        ...new Set(changes.flatMap((change) => [change.before_screenshot_key, change.after_screenshot_key])),
      ].filter((key): key is string => key !== null);
      const stillNeeded = new Set(
        (
          await em.execute<{ key: string }[]>(
            `select before_screenshot_key as key from changes where detected_at >= ? and before_screenshot_key in (?)
             union select after_screenshot_key from changes where detected_at >= ? and after_screenshot_key in (?)
             union select screenshot_key from monitors where screenshot_key in (?)`,
            [cutoff, keys, cutoff, keys, keys],
            'all',
          )
        ).map((row) => row.key),
      );
      const expired = keys.filter((key) => !stillNeeded.has(key));
      const gone = await this.deleteFiles(expired);
      // A change keeps its references while one of its files could not be deleted, so the next sweep tries again.
      const done = (key: string | null) => key === null || stillNeeded.has(key) || gone.has(key);
      const cleared = changes.filter(
        (change) => done(change.before_screenshot_key) && done(change.after_screenshot_key),
      );
      if (cleared.length) {
        await em.execute(
          'update changes set before_screenshot_key = null, after_screenshot_key = null where id in (?)',
          [cleared.map((change) => change.id)],
          'run',
        );
      }
      deleted += gone.size;
      if (changes.length < BATCH || !cleared.length) break;
    }
    return deleted;
  }

  /** Deletes the files; answers those that are gone. A file the store refuses is logged and left for the next sweep. */
  private async deleteFiles(keys: string[]): Promise<Set<string>> {
    const outcomes = await Promise.allSettled(keys.map((key) => this.store.delete(key)));
    const gone = new Set<string>();
    outcomes.forEach((outcome, index) => {
      if (outcome.status === 'fulfilled') gone.add(keys[index]);
      else
        this.logger.warn(
          { err: outcome.reason as unknown, key: keys[index] },
          'could not delete an artifact past retention',
        );
    });
    return gone;
  }
}
