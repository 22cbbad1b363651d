import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { AXE_TAGS, type Viewport } from '../../libs/capture';
import type { WorkspacePrincipal, WorkspaceSession } from '../common/auth/principal';
import { DomainError, NotFound } from '../common/errors/domain-errors';
import { type Page, pageOf, pageWindow } from '../common/pagination/pagination';
import { Monitor } from '../monitors/entities/monitor.entity';
import { VIEWPORTS } from '../release-checks/viewports';
import { PersonDto } from '../users/dto/user.dto';
import { User } from '../users/user.entity';
import { compareWithBaseline } from './a11y-comparison';
import { A11yScanRunner, baselineOf } from './a11y-scan-runner';
import type {
  A11yAttestationDto,
  A11yReportDto,
  A11yScanDto,
  ListA11yScansQuery,
  ListAllA11yScansQuery,
} from './dto/a11y-scan.dto';
import { A11yAttestation } from './entities/a11y-attestation.entity';
import { A11yScan } from './entities/a11y-scan.entity';

/** Accessibility scans of the workspace's monitors (the request's scope filters every query), reports, attestation. */
@Injectable()
export class A11yScansService {
  constructor(
    private readonly em: EntityManager,
    private readonly runner: A11yScanRunner,
  ) {}

  async start(principal: WorkspacePrincipal, monitorId: string, viewports?: Viewport[]): Promise<A11yScanDto> {
    const monitor = await this.em.findOne(Monitor, { id: monitorId });
    if (!monitor) throw new NotFound('Monitor');
    if (monitor.url === null) throw new DomainError('no_page', 'A heartbeat monitor has no page to scan.');
    const scan = this.em.create(A11yScan, {
      workspace: monitor.workspace,
      monitor,
      url: monitor.url,
      // In the contract's order, whatever order they were asked in.
      viewports: VIEWPORTS.filter((viewport) => (viewports ?? VIEWPORTS).includes(viewport)),
      tags: [...AXE_TAGS],
      createdBy: principal.userId ? this.em.getReference(User, principal.userId) : null,
    });
    await this.em.flush();
    await this.runner.enqueue(scan.id);
    return present(scan);
  }

  async list(query: ListAllA11yScansQuery): Promise<Page<A11yScanDto>> {
    const [scans, total] = await this.em.findAndCount(
      A11yScan,
      {
        ...(query.monitor_id ? { monitor: query.monitor_id } : {}),
        ...(query.status ? { status: query.status } : {}),
      },
      { orderBy: { createdAt: 'desc', id: 'desc' }, ...pageWindow(query) },
    );
    return pageOf(scans.map(present), total, query);
  }

  async listForMonitor(monitorId: string, query: ListA11yScansQuery): Promise<Page<A11yScanDto>> {
    if (!(await this.em.count(Monitor, { id: monitorId }))) throw new NotFound('Monitor');
    return this.list({ ...query, monitor_id: monitorId });
  }

  async get(id: string): Promise<A11yScanDto> {
    return present(await this.owned(id));
  }

  /** The scan, its findings, the monitor's baseline and the comparison with it (once the scan completed). */
  async report(id: string): Promise<A11yReportDto> {
    const scan = await this.owned(id, ['findings', 'needsReview']);
    const baseline = await baselineOf(this.em, scan.monitor.id);
    return {
      scan: present(scan),
      findings: scan.findings,
      needs_review: scan.needsReview,
      baseline: baseline && {
        scan_id: baseline.scan.id,
        attested_by: PersonDto.from(baseline.attestedBy),
        attested_at: baseline.createdAt.toISOString(),
        note: baseline.note,
        axe_version: baseline.scan.axeVersion ?? '',
      },
      comparison: baseline && scan.status === 'completed' ? compareWithBaseline(scan, baseline.scan) : null,
    };
  }

  /** A person makes a completed scan the monitor's baseline; earlier attestations stay as history. */
  async attest(principal: WorkspaceSession, id: string, note: string): Promise<A11yAttestationDto> {
    return this.em.transactional(async (em) => {
      const scan = await em.findOne(A11yScan, { id }, { lockMode: LockMode.PESSIMISTIC_READ });
      if (!scan) throw new NotFound('Accessibility scan');
      if (scan.status !== 'completed' || !scan.axeVersion) {
        throw new DomainError(
          'scan_not_completed',
          `This scan is ${scan.status}; only a completed scan can be attested as the baseline.`,
        );
      }
      const person = await em.findOneOrFail(User, { id: principal.userId });
      const attestation = em.create(A11yAttestation, { scan, monitor: scan.monitor, attestedBy: person, note });
      await em.flush();
      return {
        id: attestation.id,
        scan_id: scan.id,
        monitor_id: scan.monitor.id,
        attested_by: { id: person.id, email: person.email },
        attested_at: attestation.createdAt.toISOString(),
        note: attestation.note,
        axe_version: scan.axeVersion,
      };
    });
  }

  private async owned(id: string, populate: ('findings' | 'needsReview')[] = []): Promise<A11yScan> {
    const scan = await this.em.findOne(A11yScan, { id }, { populate });
    if (!scan) throw new NotFound('Accessibility scan');
    return scan;
  }
}

function present(scan: A11yScan): A11yScanDto {
  return {
    id: scan.id,
    monitor_id: scan.monitor.id,
    url: scan.url,
    status: scan.status,
    failure: scan.failure,
    viewports: scan.viewports,
    axe_version: scan.axeVersion,
    tags: scan.tags,
    summary: scan.summary,
    created_at: scan.createdAt.toISOString(),
    completed_at: scan.completedAt?.toISOString() ?? null,
  };
}
