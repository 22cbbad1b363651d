import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { WorkspacePrincipal } from '../common/auth/principal';
import { DomainError, type FieldError, NotFound, ValidationFailed } from '../common/errors/domain-errors';
import { type Page, type PageQuery, pageOf, pageWindow } from '../common/pagination/pagination';
import { Monitor } from '../monitors/entities/monitor.entity';
import { Workspace } from '../workspaces/entities/workspace.entity';
import type {
  CreateIncidentDto,
  CreateStatusPageDto,
  IncidentDto,
  StatusPageComponentInputDto,
  StatusPageDto,
  UpdateIncidentDto,
  UpdateStatusPageDto,
} from './dto/status-pages.dto';
import { Incident, IncidentUpdate } from './entities/incident.entity';
import { presentIncidents, publicIncident } from './incident.presenter';
import { noticeIncident } from './subscribers/subscriber-notices';
import { StatusPage, type StatusPageComponent } from './entities/status-page.entity';
import { PublicStatusCache } from './public-status-cache';
import { PlanGate } from '../users/plan-gate';

/**
 * The workspace's status pages and their incidents (the request's scope filters every query). Every change is
 * committed first and then replaces the public page's cached copy, so visitors see it on their next read.
 */
@Injectable()
export class StatusPagesService {
  constructor(
    private readonly em: EntityManager,
    private readonly cache: PublicStatusCache,
    private readonly planGate: PlanGate,
  ) {}

  async list(query: PageQuery): Promise<Page<StatusPageDto>> {
    const [pages, total] = await this.em.findAndCount(
      StatusPage,
      {},
      { orderBy: { createdAt: 'asc', id: 'asc' }, ...pageWindow(query) },
    );
    return pageOf(pages.map(presentPage), total, query);
  }

  async create(principal: WorkspacePrincipal, input: CreateStatusPageDto): Promise<StatusPageDto> {
    const components = await this.components(input.components ?? [], []);
    const page = await this.claimingSlug(input.slug, () =>
      this.planGate.withRoom(principal.workspace.id, 'status_pages', StatusPage, 1, (tx) =>
        tx.create(StatusPage, {
          workspace: tx.getReference(Workspace, principal.workspace.id),
          slug: input.slug,
          title: input.title,
          description: input.description ?? null,
          published: input.published ?? false,
          components,
        }),
      ),
    );
    await this.cache.invalidate(page.slug);
    return presentPage(page);
  }

  async get(id: string): Promise<StatusPageDto> {
    return presentPage(await this.owned(id));
  }

  async update(id: string, input: UpdateStatusPageDto): Promise<StatusPageDto> {
    const page = await this.owned(id);
    const previousSlug = page.slug;
    if (input.components !== undefined) page.components = await this.components(input.components, page.components);
    if (input.slug !== undefined) page.slug = input.slug;
    if (input.title !== undefined) page.title = input.title;
    if (input.description !== undefined) page.description = input.description;
    if (input.published !== undefined) page.published = input.published;
    await this.claimingSlug(page.slug, () => this.em.flush());
    await this.cache.invalidate(previousSlug, page.slug);
    return presentPage(page);
  }

  async delete(id: string): Promise<void> {
    const page = await this.owned(id);
    await this.em.remove(page).flush();
    await this.cache.invalidate(page.slug);
  }

  async listIncidents(id: string, query: PageQuery): Promise<Page<IncidentDto>> {
    const page = await this.owned(id);
    const [incidents, total] = await this.em.findAndCount(
      Incident,
      { statusPage: page },
      { orderBy: { createdAt: 'desc', id: 'desc' }, ...pageWindow(query) },
    );
    return pageOf(await presentIncidents(this.em, incidents), total, query);
  }

  async createIncident(id: string, input: CreateIncidentDto): Promise<IncidentDto> {
    const page = await this.owned(id);
    const status = input.status ?? 'investigating';
    const now = new Date();
    const presented = await this.em.transactional(async (tx) => {
      const incident = tx.create(Incident, {
        statusPage: page,
        title: input.title,
        impact: input.impact,
        status,
        createdAt: now,
        resolvedAt: status === 'resolved' ? now : null,
      });
      tx.create(IncidentUpdate, { incident, status, message: input.message, createdAt: now });
      await tx.flush();
      return this.told(tx, page, incident);
    });
    await this.cache.invalidate(page.slug);
    return presented;
  }

  /**
   * Posts an update; a resolved incident takes none (its story is told). The incident's row is locked while it is
   * read and changed, so two updates at once cannot both get past the resolved check.
   */
  async updateIncident(id: string, incidentId: string, input: UpdateIncidentDto): Promise<IncidentDto> {
    const page = await this.owned(id);
    const incident = await this.em.transactional(async (tx) => {
      const locked = await tx.findOne(
        Incident,
        { id: incidentId, statusPage: page },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      if (!locked) throw new NotFound('Incident');
      if (locked.status === 'resolved') {
        throw new DomainError(
          'incident_resolved',
          'The incident is resolved and takes no more updates; open a new one.',
        );
      }
      const now = new Date();
      locked.status = input.status;
      if (input.title !== undefined) locked.title = input.title;
      if (input.impact !== undefined) locked.impact = input.impact;
      if (input.status === 'resolved') locked.resolvedAt = now;
      tx.create(IncidentUpdate, { incident: locked, status: input.status, message: input.message, createdAt: now });
      await tx.flush();
      return this.told(tx, page, locked);
    });
    await this.cache.invalidate(page.slug);
    return incident;
  }

  /** The incident as posted, with its update written for the page's subscribers in the same transaction. */
  private async told(tx: EntityManager, page: StatusPage, incident: Incident): Promise<IncidentDto> {
    const [presented] = await presentIncidents(tx, [incident]);
    await noticeIncident(tx, page, publicIncident(presented));
    return presented;
  }

  private async owned(id: string): Promise<StatusPage> {
    const page = await this.em.findOne(StatusPage, { id });
    if (!page) throw new NotFound('Status page');
    return page;
  }

  /** Components as sent: existing ids kept, new ones given ids, every monitor one of the workspace's. */
  private async components(
    input: StatusPageComponentInputDto[],
    existing: StatusPageComponent[],
  ): Promise<StatusPageComponent[]> {
    const known = new Set(existing.map((component) => component.id));
    const wanted = [...new Set(input.flatMap((component) => component.monitor_ids))];
    const found = new Set(
      (await this.em.find(Monitor, { id: { $in: wanted } }, { fields: ['id'] })).map((monitor) => monitor.id),
    );
    const errors: FieldError[] = [];
    const seenIds = new Set<string>();
    input.forEach((component, index) => {
      if (component.id !== undefined && (!known.has(component.id) || seenIds.has(component.id))) {
        errors.push({
          field: `components[${index}].id`,
          message: 'must be the id of one of the page’s components, once',
        });
      }
      if (component.id !== undefined) seenIds.add(component.id);
      component.monitor_ids.forEach((monitorId, position) => {
        if (!found.has(monitorId)) {
          errors.push({
            field: `components[${index}].monitor_ids[${position}]`,
            message: 'no such monitor in this workspace',
          });
        }
      });
    });
    if (errors.length) throw new ValidationFailed(errors);
    return input.map((component) => ({
      id: component.id ?? randomUUID(),
      name: component.name,
      monitor_ids: component.monitor_ids,
    }));
  }

  /** Runs `write`, turning another page's hold on the slug into `409 slug_taken`. */
  private async claimingSlug<T>(slug: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) {
        this.em.clear();
        throw new DomainError('slug_taken', `The slug "${slug}" is taken; choose another.`);
      }
      throw error;
    }
  }
}

export function presentPage(page: StatusPage): StatusPageDto {
  return {
    id: page.id,
    slug: page.slug,
    title: page.title,
    description: page.description,
    published: page.published,
    public_url: `/status/${page.slug}`,
    components: page.components,
    created_at: page.createdAt.toISOString(),
    updated_at: page.updatedAt.toISOString(),
    declaration_key: page.declarationKey,
  };
}
