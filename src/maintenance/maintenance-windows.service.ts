import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import type { WorkspacePrincipal } from '../common/auth/principal';
import { DomainError, type FieldError, NotFound, ValidationFailed } from '../common/errors/domain-errors';
import { type Page, type PageQuery, pageOf, pageWindow } from '../common/pagination/pagination';
import { Monitor } from '../monitors/entities/monitor.entity';
import { PublicStatusCache } from '../status-pages/public-status-cache';
import { Workspace } from '../workspaces/entities/workspace.entity';
import type {
  CreateMaintenanceWindowDto,
  MaintenanceWindowDto,
  UpdateMaintenanceWindowDto,
} from './dto/maintenance-windows.dto';
import { MaintenanceWindow } from './entities/maintenance-window.entity';
import { announceTransitions } from './maintenance-announcements';
import { isTimeZone, type Occurrence, recurrenceProblem, windowState } from './maintenance-calendar';
import { durationOf, MINUTE_MS } from './window-duration';

/**
 * The workspace's maintenance windows (the request's scope filters every query). Each change is made under the
 * window's row lock with what it means for receivers (`announceTransitions`), then the workspace's public status
 * pages are recomputed on their next read.
 */
@Injectable()
export class MaintenanceWindowsService {
  constructor(
    private readonly em: EntityManager,
    private readonly statusCache: PublicStatusCache,
  ) {}

  async list(query: PageQuery): Promise<Page<MaintenanceWindowDto>> {
    const [windows, total] = await this.em.findAndCount(
      MaintenanceWindow,
      {},
      { orderBy: { createdAt: 'desc', id: 'desc' }, ...pageWindow(query) },
    );
    const now = new Date();
    return pageOf(
      windows.map((window) => presentWindow(window, now)),
      total,
      query,
    );
  }

  async get(id: string): Promise<MaintenanceWindowDto> {
    return presentWindow(await this.owned(this.em, id), new Date());
  }

  async create(principal: WorkspacePrincipal, input: CreateMaintenanceWindowDto): Promise<MaintenanceWindowDto> {
    const now = new Date();
    const startsAt = input.starts_at ?? now;
    const monitorIds = input.monitor_ids ?? [];
    const errors: FieldError[] = [];
    const durationMinutes = durationOf(input, startsAt, null, errors);
    await this.checkSettings(
      { monitorIds, recurrence: input.rrule ?? null, timezone: input.timezone ?? 'UTC' },
      errors,
    );
    const window = await this.em.transactional(async (tx) => {
      const created = tx.create(MaintenanceWindow, {
        workspace: tx.getReference(Workspace, principal.workspace.id),
        title: input.name,
        message: input.message ?? null,
        mode: input.effect ?? 'mute_alerts',
        // No monitor named: every monitor of the workspace.
        allMonitors: monitorIds.length === 0,
        monitorIds,
        startsAt,
        durationMinutes,
        recurrence: input.rrule ?? null,
        timezone: input.timezone ?? 'UTC',
      });
      await announceTransitions(tx, created, now);
      return created;
    });
    await this.statusPagesChanged();
    return presentWindow(window, now);
  }

  async update(id: string, input: UpdateMaintenanceWindowDto): Promise<MaintenanceWindowDto> {
    const now = new Date();
    const window = await this.em.transactional(async (tx) => {
      const locked = await this.owned(tx, id, true);
      const monitorIds = input.monitor_ids ?? locked.monitorIds;
      const startsAt = input.starts_at ?? locked.startsAt;
      const recurrence = input.rrule === undefined ? locked.recurrence : input.rrule;
      const timezone = input.timezone ?? locked.timezone;
      const errors: FieldError[] = [];
      const durationMinutes = durationOf(input, startsAt, locked.durationMinutes, errors);
      await this.checkSettings({ monitorIds, recurrence, timezone }, errors, tx);
      const timesChange =
        startsAt.getTime() !== locked.startsAt.getTime() ||
        durationMinutes !== locked.durationMinutes ||
        recurrence !== locked.recurrence ||
        timezone !== locked.timezone;
      Object.assign(locked, {
        title: input.name ?? locked.title,
        message: input.message === undefined ? locked.message : input.message,
        mode: input.effect ?? locked.mode,
        allMonitors: monitorIds.length === 0,
        monitorIds,
        startsAt,
        durationMinutes,
        recurrence,
        timezone,
        // An "end now" was about the occurrences as they were.
        endedAt: timesChange ? null : locked.endedAt,
      });
      await announceTransitions(tx, locked, now);
      return locked;
    });
    await this.statusPagesChanged();
    return presentWindow(window, now);
  }

  async delete(id: string): Promise<void> {
    await this.em.transactional(async (tx) => {
      const locked = await this.owned(tx, id, true);
      await announceTransitions(tx, locked, new Date(), true);
      tx.remove(locked);
    });
    await this.statusPagesChanged();
  }

  /** "End now": the occurrence under way ends at once; a window not under way is a `409 maintenance_not_active`. */
  async end(id: string): Promise<MaintenanceWindowDto> {
    const now = new Date();
    const window = await this.em.transactional(async (tx) => {
      const locked = await this.owned(tx, id, true);
      if (windowState(locked, now).status !== 'active') {
        throw new DomainError('maintenance_not_active', 'The maintenance window is not under way; nothing to end.');
      }
      locked.endedAt = now;
      await announceTransitions(tx, locked, now);
      return locked;
    });
    await this.statusPagesChanged();
    return presentWindow(window, now);
  }

  private async owned(em: EntityManager, id: string, lock = false): Promise<MaintenanceWindow> {
    const window = await em.findOne(MaintenanceWindow, { id }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
    if (!window) throw new NotFound('Maintenance window');
    return window;
  }

  /**
   * The settings a window may have: monitors of the workspace (none: all of them), a valid RRULE, a known time zone.
   * Refuses them with `errors`, the problems already found, added to.
   */
  private async checkSettings(
    settings: { monitorIds: string[]; recurrence: string | null; timezone: string },
    errors: FieldError[],
    em: EntityManager = this.em,
  ): Promise<void> {
    const found = new Set(
      (await em.find(Monitor, { id: { $in: settings.monitorIds } }, { fields: ['id'] })).map((monitor) => monitor.id),
    );
    settings.monitorIds.forEach((monitorId, position) => {
      if (!found.has(monitorId))
        errors.push({ field: `monitor_ids[${position}]`, message: 'no such monitor in this workspace' });
    });
    const problem = settings.recurrence === null ? null : recurrenceProblem(settings.recurrence);
    if (problem) errors.push({ field: 'rrule', message: problem });
    if (!isTimeZone(settings.timezone)) errors.push({ field: 'timezone', message: 'must be an IANA time zone' });
    if (errors.length) throw new ValidationFailed(errors);
  }

  /** The workspace's public pages show maintenance: the next read of each computes it afresh. */
  private statusPagesChanged(): Promise<void> {
    return this.statusCache.invalidateWorkspace(this.em);
  }
}

const occurrenceView = (occurrence: Occurrence | null) =>
  occurrence && { starts_at: occurrence.startsAt.toISOString(), ends_at: occurrence.endsAt.toISOString() };

export function presentWindow(window: MaintenanceWindow, now: Date): MaintenanceWindowDto {
  const state = windowState(window, now);
  return {
    id: window.id,
    name: window.title,
    message: window.message,
    effect: window.mode,
    monitor_ids: window.monitorIds,
    starts_at: window.startsAt.toISOString(),
    ends_at: new Date(window.startsAt.getTime() + window.durationMinutes * MINUTE_MS).toISOString(),
    duration_minutes: window.durationMinutes,
    rrule: window.recurrence,
    timezone: window.timezone,
    active: state.status === 'active',
    status: state.status,
    current: occurrenceView(state.current),
    next: occurrenceView(state.next),
    ended_at: window.endedAt?.toISOString() ?? null,
    created_at: window.createdAt.toISOString(),
    updated_at: window.updatedAt.toISOString(),
    declaration_key: window.declarationKey,
  };
}
