import { EntityManager } from '@mikro-orm/postgresql';
import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { stringify } from 'csv-stringify';
import { Change } from '../changes/entities/change.entity';
import type { TrackedValueDto } from '../monitors/dto/monitor.dto';
import { TrackedValueReadingRecord } from '../monitors/entities/tracked-value-reading.entity';
import { presentReading } from '../monitors/monitor.presenter';
import { type ChangeExportRowDto, DEFAULT_EXPORT_LIMIT, type ExportQuery } from './export.dto';

/** Rows are read this many at a time, so a large export streams without holding every row in memory. */
const CHUNK = 1000;
const DEFAULT_SPAN_MS = 30 * 24 * 3600 * 1000;

export const CHANGE_COLUMNS: (keyof ChangeExportRowDto)[] = [
  'id',
  'monitor_id',
  'monitor_name',
  'kind',
  'detected_at',
  'region',
  'summary',
  'summary_source',
  'feedback',
  'archived',
  'value_name',
  'value_before',
  'value_after',
  'added_lines',
  'removed_lines',
];
export const TRACKED_VALUE_COLUMNS: (keyof TrackedValueDto)[] = [
  'id',
  'monitor_id',
  'name',
  'kind',
  'raw',
  'amount',
  'currency',
  'region',
  'captured_at',
];

function changeRow(change: Change): ChangeExportRowDto {
  return {
    id: change.id,
    monitor_id: change.monitor.id,
    monitor_name: change.monitor.name,
    kind: change.kind,
    detected_at: change.detectedAt.toISOString(),
    region: change.region,
    summary: change.summary.text,
    summary_source: change.summary.source,
    feedback: change.feedback,
    archived: change.archived,
    value_name: change.value?.name ?? null,
    value_before: change.value?.before ?? null,
    value_after: change.value?.after ?? null,
    added_lines: change.diff?.added.length ?? 0,
    removed_lines: change.diff?.removed.length ?? 0,
  };
}

/**
 * Recent changes and tracked-value readings of the workspace's monitors, as JSON or streamed CSV. The forks below
 * keep the request's workspace scope; readings are reached through their monitor, which the scope filters.
 */
@Injectable()
export class ExportService {
  constructor(private readonly em: EntityManager) {}

  async *changes(query: ExportQuery): AsyncGenerator<ChangeExportRowDto> {
    const where = {
      detectedAt: { $gte: query.since ?? new Date(Date.now() - DEFAULT_SPAN_MS) },
      ...(query.monitor_id ? { monitor: query.monitor_id } : {}),
    };
    yield* this.chunks(query, (offset, limit) =>
      this.em
        .fork()
        .find(Change, where, { orderBy: { detectedAt: 'desc', id: 'asc' }, offset, limit, populate: ['monitor'] })
        .then((changes) => changes.map(changeRow)),
    );
  }

  async *trackedValues(query: ExportQuery): AsyncGenerator<TrackedValueDto> {
    const where = {
      ...(query.monitor_id ? { monitor: query.monitor_id } : {}),
      capturedAt: { $gte: query.since ?? new Date(Date.now() - DEFAULT_SPAN_MS) },
    };
    yield* this.chunks(query, (offset, limit) =>
      this.em
        .fork()
        .find(TrackedValueReadingRecord, where, { orderBy: { capturedAt: 'desc', id: 'asc' }, offset, limit })
        .then((readings) => readings.map(presentReading)),
    );
  }

  /** The rows as CSV with a header row, produced as they are read. */
  csv<T extends object>(rows: AsyncIterable<T>, columns: (keyof T)[]): Readable {
    return Readable.from(rows).pipe(
      stringify({ header: true, columns: columns as string[], cast: { boolean: String } }),
    );
  }

  private async *chunks<T>(query: ExportQuery, read: (offset: number, limit: number) => Promise<T[]>) {
    const total = query.limit ?? DEFAULT_EXPORT_LIMIT;
    for (let offset = 0; offset < total; offset += CHUNK) {
      const rows = await read(offset, Math.min(CHUNK, total - offset));
      yield* rows;
      if (rows.length < CHUNK) return;
    }
  }
}
