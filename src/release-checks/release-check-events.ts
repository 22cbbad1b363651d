import type { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { AlertDestination } from '../alerts/entities/alert-destination.entity';
import { connectionFor } from '../code-hosts/connection-routing';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { EventDataOf } from '../events/event-payloads';
import { recordEvent } from '../events/outbox';
import type { ReleaseCheckArtifact } from './entities/release-check-artifact.entity';
import type { ReleaseCheck } from './entities/release-check.entity';
import type { ReviewDecision } from './entities/release-check-review.entity';
import { summarize } from './release-check-summary';

/** Pairs listed in an event; the summary counts them all. */
const MAX_LISTED_PAIRS = 50;

type Revisioned = Pick<ReleaseCheck, 'id' | 'name' | 'revision' | 'source' | 'pages' | 'viewports' | 'workspace'>;

/**
 * A release check's events, recorded in the caller's transaction: `started` (created or rerun), `completed`
 * (collection ended) and `reviewed`. Besides the workspace's subscribers, each goes to the code-host connection that
 * serves the check's source, if any, in the check's order (one lane per check): the statuses and comment follow the
 * gate from these events alone.
 */
@Injectable()
export class ReleaseCheckEvents {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async started(em: EntityManager, check: Revisioned): Promise<void> {
    await this.record(em, check, {
      type: 'release_check.started',
      data: {
        release_check_id: check.id,
        name: check.name,
        revision: check.revision,
        pairs: check.pages.length * check.viewports.length,
        source: check.source,
        review_url: this.reviewUrl(check),
      },
    });
  }

  async completed(
    em: EntityManager,
    check: Revisioned & Pick<ReleaseCheck, 'gate'>,
    status: 'completed' | 'incomplete',
    artifacts: ReleaseCheckArtifact[],
  ): Promise<void> {
    await this.record(em, check, {
      type: 'release_check.completed',
      data: {
        release_check_id: check.id,
        name: check.name,
        revision: check.revision,
        collection_status: status,
        gate: check.gate,
        summary: summarize(artifacts),
        source: check.source,
        review_url: this.reviewUrl(check),
        pairs_with_differences: this.pairsWithDifferences(check, artifacts),
      },
    });
  }

  async reviewed(
    em: EntityManager,
    check: Revisioned & Pick<ReleaseCheck, 'gate'>,
    decision: ReviewDecision,
    reviewer: { id: string; email: string },
    artifacts: ReleaseCheckArtifact[],
  ): Promise<void> {
    await this.record(em, check, {
      type: 'release_check.reviewed',
      data: {
        release_check_id: check.id,
        name: check.name,
        revision: check.revision,
        decision,
        gate: check.gate,
        reviewer_id: reviewer.id,
        reviewer_email: reviewer.email,
        summary: summarize(artifacts),
        source: check.source,
        review_url: this.reviewUrl(check),
        pairs_with_differences: this.pairsWithDifferences(check, artifacts),
      },
    });
  }

  private async record(
    em: EntityManager,
    check: Revisioned,
    event:
      | { type: 'release_check.started'; data: EventDataOf<'release_check.started'> }
      | { type: 'release_check.completed'; data: EventDataOf<'release_check.completed'> }
      | { type: 'release_check.reviewed'; data: EventDataOf<'release_check.reviewed'> },
  ): Promise<void> {
    const connection = check.source ? await this.connectionFor(em, check.source) : null;
    recordEvent(em, {
      ...event,
      workspaceId: check.workspace.id,
      destinationIds: connection ? [connection.id] : [],
      orderingKey: `release_check:${check.id}`,
    });
  }

  /** The enabled connection serving the source's repository (in the caller's workspace scope). */
  private async connectionFor(
    em: EntityManager,
    source: NonNullable<ReleaseCheck['source']>,
  ): Promise<AlertDestination | null> {
    const connections = await em.find(AlertDestination, { type: source.provider, enabled: true });
    return (
      connectionFor(
        source,
        connections.map((connection) => ({
          connection,
          id: connection.id,
          provider: source.provider,
          namespace: connection.config.namespace ?? '',
        })),
      )?.connection ?? null
    );
  }

  private reviewUrl(check: Pick<ReleaseCheck, 'id'>): string {
    return `${this.config.publicUrl ?? ''}/release-checks/${check.id}`;
  }

  private pairsWithDifferences(
    check: Revisioned,
    artifacts: ReleaseCheckArtifact[],
  ): EventDataOf<'release_check.completed'>['pairs_with_differences'] {
    return artifacts
      .filter((artifact) => artifact.state === 'compared' && artifact.comparison?.has_differences)
      .sort((a, b) => a.pageIndex - b.pageIndex || a.viewport.localeCompare(b.viewport))
      .slice(0, MAX_LISTED_PAIRS)
      .map((artifact) => ({
        artifact_id: artifact.id,
        production_path: check.pages[artifact.pageIndex].production_path,
        preview_path: check.pages[artifact.pageIndex].preview_path,
        viewport: artifact.viewport,
        review_url: `${this.reviewUrl(check)}#pair-${artifact.id}`,
      }));
  }
}
