import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { ArtifactStore } from '../artifacts/artifact-store';
import { NotFound } from '../common/errors/domain-errors';
import { type Page, pageOf, pageWindow, type PageQuery } from '../common/pagination/pagination';
import { Monitor } from '../monitors/entities/monitor.entity';
import type { ChangeDetailDto, ChangeDto } from './dto/change.dto';
import type { ChangeScreenshotName, ListChangesQuery, UpdateChangeDto } from './dto/change-requests.dto';
import { Change } from './entities/change.entity';
import { presentChange, presentChangeDetail } from './change.presenter';

@Injectable()
export class ChangesService {
  constructor(
    private readonly em: EntityManager,
    private readonly store: ArtifactStore,
  ) {}

  async list(query: ListChangesQuery): Promise<Page<ChangeDto>> {
    const { offset, limit } = pageWindow(query);
    const [changes, total] = await this.em.findAndCount(
      Change,
      {
        archived: query.archived ?? false,
        ...(query.monitor_id ? { monitor: query.monitor_id } : {}),
        ...(query.kind ? { kind: query.kind } : {}),
      },
      { orderBy: { detectedAt: 'desc', id: 'asc' }, offset, limit, populate: ['monitor'], exclude: ['diff'] },
    );
    return pageOf(changes.map(presentChange), total, query);
  }

  /** A monitor's changes, archived ones included, newest first. */
  async timeline(monitorId: string, query: PageQuery): Promise<Page<ChangeDto>> {
    const monitor = await this.em.findOne(Monitor, { id: monitorId }, { fields: ['id'] });
    if (!monitor) throw new NotFound('Monitor');
    const { offset, limit } = pageWindow(query);
    const [changes, total] = await this.em.findAndCount(
      Change,
      { monitor },
      { orderBy: { detectedAt: 'desc', id: 'asc' }, offset, limit, populate: ['monitor'], exclude: ['diff'] },
    );
    return pageOf(changes.map(presentChange), total, query);
  }

  async get(id: string): Promise<ChangeDetailDto> {
    return presentChangeDetail(await this.owned(id));
  }

  async update(id: string, body: UpdateChangeDto): Promise<ChangeDetailDto> {
    const change = await this.owned(id);
    if (body.feedback !== undefined) change.feedback = body.feedback;
    if (body.archived !== undefined) change.archived = body.archived;
    await this.em.flush();
    return presentChangeDetail(change);
  }

  async screenshot(id: string, name: ChangeScreenshotName): Promise<Buffer> {
    const change = await this.owned(id);
    const keys: Record<ChangeScreenshotName, string | null> = {
      'before.png': change.beforeScreenshotKey,
      'after.png': change.afterScreenshotKey,
      'diff.png': change.diffScreenshotKey,
    };
    const key = keys[name];
    const data = key ? await this.store.get(key) : null;
    if (!data) throw new NotFound('Screenshot');
    return data;
  }

  private async owned(id: string): Promise<Change> {
    const change = await this.em.findOne(Change, { id }, { populate: ['monitor'] });
    if (!change) throw new NotFound('Change');
    return change;
  }
}
