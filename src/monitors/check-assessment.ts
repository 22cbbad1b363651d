import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import {
  compareScreenshots,
  instabilityOf,
  learnVolatileLines,
  MAX_UNSTABLE_REGIONS,
  mergeRegions,
  type SideEvidence,
  stableText,
} from '../../libs/compare';
import type { ExtractedContent } from '../../libs/page-check';
import { ArtifactStore } from '../artifacts/artifact-store';
import { inWorkspace, workspaceUnitOfWork } from '../common/tenancy/workspace-scope';
import type { MetadataFieldChange } from '../changes/entities/change.entity';
import { whenDatabaseAnswers } from '../db/database-outage';
import type { Monitor, PageMetadata, Volatility } from './entities/monitor.entity';
import { type CheckTarget, MonitorCheckRunner, type PageObservation } from './monitor-check-runner';

/** What the assessment needs of the monitor: its stored evidence and what it learned moves on its own. */
export type AssessedMonitor = CheckTarget &
  Pick<Monitor, 'id' | 'contentHash' | 'screenshotKey' | 'metadata' | 'volatile' | 'visualThreshold'> & {
    workspaceId: string;
  };

/** A stable visual difference from the monitor's last screenshot. */
export interface VisualDifference {
  mismatchRatio: number;
  diffPng: Buffer | null;
}

/**
 * What a check found once what moves on its own is left out: the look whose evidence is recorded, its stable
 * content (the watched text without volatile lines, and that text's hash), the metadata and visual differences that
 * held on a second look, and what the monitor learned moves.
 */
export interface CheckAssessment {
  observation: PageObservation;
  /** The observation's content with `text` and `contentHash` of its stable text; null when the check read none. */
  content: ExtractedContent | null;
  /** The stable text differs from the stored one (read without volatile lines): a content change. */
  contentChanged: boolean;
  volatile: Volatility;
  /** The monitor saw something move for the first time (its volatility must be stored). */
  learned: boolean;
  /** Metadata to keep as the monitor's: unstable fields keep their stored value. */
  metadata: PageMetadata | null;
  metadataChanges: MetadataFieldChange[];
  visual: VisualDifference | null;
  /** The stored text without volatile lines, when it was read (the content moved); the "before" of a change. */
  storedText: string | null;
}

const METADATA_FIELDS = ['title', 'robots', 'canonical', 'status_class'] as const;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Decides what a monitor's check changed (decision 0012). A check whose content, metadata or screenshot differs from
 * what the monitor stored looks at the page once more; whatever differs between the two looks moves on its own: its
 * lines and screenshot regions are learned by the monitor and left out from then on, and metadata that moved is not a
 * change. A change is recorded only for a difference that held on the second look. Checks that match what is stored
 * cost nothing extra.
 */
@Injectable()
export class CheckAssessor {
  constructor(
    private readonly orm: MikroORM,
    private readonly runner: MonitorCheckRunner,
    private readonly store: ArtifactStore,
  ) {}

  async assess(monitor: AssessedMonitor): Promise<CheckAssessment> {
    // The stored text is read at most once per check, whichever look needs it first.
    let stored: Promise<string> | null = null;
    const storedText = () => (stored ??= this.readStoredText(monitor));
    const first = await this.runner.observe(monitor);
    const baseline = await this.baselineScreenshot(monitor, first);
    const firstLook = await this.judge(monitor, first, monitor.volatile, baseline, storedText);
    if (!firstLook.differs) return firstLook.assessment;

    const second = await this.runner.observe(monitor);
    if (!second.ok || !first.ok) {
      return (await this.judge(monitor, second, monitor.volatile, baseline, storedText)).assessment;
    }
    const learnedLines = learnVolatileLines(
      monitor.volatile.lines,
      first.content?.text ?? '',
      second.content?.text ?? '',
    );
    const moved = await instabilityOf([evidenceOf(first), evidenceOf(second)]);
    const volatile: Volatility = {
      lines: learnedLines,
      regions: mergeRegions([...monitor.volatile.regions, ...moved.regions], MAX_UNSTABLE_REGIONS),
    };
    const secondLook = await this.judge(monitor, second, volatile, baseline, storedText);
    const learned =
      volatile.lines.length !== monitor.volatile.lines.length ||
      JSON.stringify(volatile.regions) !== JSON.stringify(monitor.volatile.regions);
    // Metadata that differed between the looks moved on its own: the monitor keeps what it had for those fields.
    const unstableFields = new Set(
      METADATA_FIELDS.filter(
        (field) => first.metadata && second.metadata && first.metadata[field] !== second.metadata[field],
      ),
    );
    const metadataChanges = secondLook.assessment.metadataChanges.filter(({ field }) => !unstableFields.has(field));
    const metadata =
      secondLook.assessment.metadata && monitor.metadata
        ? (Object.fromEntries(
            METADATA_FIELDS.map((field) => [
              field,
              unstableFields.has(field) ? monitor.metadata![field] : secondLook.assessment.metadata![field],
            ]),
          ) as unknown as PageMetadata)
        : secondLook.assessment.metadata;
    return { ...secondLook.assessment, learned, metadata, metadataChanges };
  }

  /** One look against what the monitor stored, with `volatile` left out; `differs` calls for a second look. */
  private async judge(
    monitor: AssessedMonitor,
    observation: PageObservation,
    volatile: Volatility,
    baseline: Buffer | null,
    readStored: () => Promise<string>,
  ): Promise<{ assessment: CheckAssessment; differs: boolean }> {
    const raw = observation.ok ? observation.content : null;
    const text = raw ? stableText(raw.text, volatile.lines) : null;
    // The same string when nothing is volatile, so the stored hash of monitors that learned nothing stays valid.
    const content =
      raw && text !== null ? { ...raw, text, contentHash: text === raw.text ? raw.contentHash : sha256(text) } : null;
    const contentMoved =
      content !== null && monitor.contentHash !== null && content.contentHash !== monitor.contentHash;
    const storedText = contentMoved ? stableText(await readStored(), volatile.lines) : null;
    // A change of volatile lines only is no change: the stored text, read without them, may be the same.
    const textMoved = contentMoved && storedText !== content.text;
    const metadataChanges =
      observation.metadata && monitor.metadata
        ? METADATA_FIELDS.filter((field) => observation.metadata![field] !== monitor.metadata![field]).map((field) => ({
            field,
            before: monitor.metadata![field],
            after: observation.metadata![field],
          }))
        : [];
    const visual = await this.visualDifference(monitor, observation, volatile, baseline);
    const assessment: CheckAssessment = {
      observation,
      content,
      contentChanged: textMoved,
      volatile,
      learned: false,
      metadata: observation.metadata,
      metadataChanges,
      visual,
      storedText,
    };
    return { assessment, differs: textMoved || metadataChanges.length > 0 || visual !== null };
  }

  /** The last screenshot a browser monitor kept, when this check has one to compare with it. */
  private async baselineScreenshot(monitor: AssessedMonitor, observation: PageObservation): Promise<Buffer | null> {
    if (!observation.screenshot || monitor.screenshotKey === null) return null;
    return this.store.get(monitor.screenshotKey);
  }

  private async visualDifference(
    monitor: AssessedMonitor,
    observation: PageObservation,
    volatile: Volatility,
    baseline: Buffer | null,
  ): Promise<VisualDifference | null> {
    if (!observation.ok || !observation.screenshot || !baseline || baseline.equals(observation.screenshot)) return null;
    const comparison = await compareScreenshots(baseline, observation.screenshot, {
      mismatchThreshold: monitor.visualThreshold,
      ignoreRegions: volatile.regions,
    });
    return comparison.changed ? { mismatchRatio: comparison.mismatch_ratio, diffPng: comparison.diff_png } : null;
  }

  /** The text the page had: read only when the content moved, since most checks never need it. */
  private async readStoredText(monitor: AssessedMonitor): Promise<string> {
    const em = workspaceUnitOfWork(this.orm.em, monitor.workspaceId);
    const [stored] = await whenDatabaseAnswers(() =>
      em.execute<{ content_text: string | null }[]>(
        `select content_text from monitors where id = ? and ${inWorkspace(em, 'workspace_id')}`,
        [monitor.id],
        'all',
      ),
    );
    return stored?.content_text ?? '';
  }
}

/** A look as the comparison library takes it: its text and screenshot are what moves between looks. */
function evidenceOf(observation: PageObservation): SideEvidence {
  return {
    url: observation.finalUrl ?? '',
    text: observation.content?.text ?? '',
    robots: observation.metadata?.robots ?? null,
    canonical: null,
    screenshot: observation.screenshot ?? EMPTY_PNG,
    findings: [],
    axe_version: '',
  };
}

/** A 1×1 transparent PNG, for HTTP checks (no screenshot): two of them never differ. */
const EMPTY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
