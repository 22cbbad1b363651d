import { Controller, Get, Query, StreamableFile } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiProduces, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { RequireScopes } from '../common/auth/access.decorators';
import { ApiProblemResponses } from '../common/errors/api-problem-responses';
import { ChangeExportDto, ExportQuery, TrackedValueExportDto } from './export.dto';
import { CHANGE_COLUMNS, ExportService, TRACKED_VALUE_COLUMNS } from './export.service';

const csvFile = (stream: NodeJS.ReadableStream, name: string) =>
  new StreamableFile(stream as never, {
    type: 'text/csv; charset=utf-8',
    disposition: `attachment; filename="${name}-${new Date().toISOString().slice(0, 10)}.csv"`,
  });

async function collect<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const row of rows) all.push(row);
  return all;
}

@ApiTags('export')
@ApiExtraModels(ChangeExportDto, TrackedValueExportDto)
@Controller('export')
export class ExportController {
  constructor(private readonly exports: ExportService) {}

  @Get('changes')
  @RequireScopes('changes:read')
  @ApiOperation({ operationId: 'exportChanges', summary: 'Export recent changes as JSON or CSV' })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({
    description: 'The changes.',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(ChangeExportDto) } },
      'text/csv': { schema: { type: 'string' } },
    },
  })
  @ApiProblemResponses(400)
  async changes(@Query() query: ExportQuery): Promise<ChangeExportDto | StreamableFile> {
    const rows = this.exports.changes(query);
    if (query.format === 'csv') return csvFile(this.exports.csv(rows, CHANGE_COLUMNS), 'changes');
    return { data: await collect(rows) };
  }

  @Get('tracked-values')
  @RequireScopes('monitors:read')
  @ApiOperation({ operationId: 'exportTrackedValues', summary: 'Export tracked-value readings as JSON or CSV' })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({
    description: 'The readings.',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(TrackedValueExportDto) } },
      'text/csv': { schema: { type: 'string' } },
    },
  })
  @ApiProblemResponses(400)
  async trackedValues(@Query() query: ExportQuery): Promise<TrackedValueExportDto | StreamableFile> {
    const rows = this.exports.trackedValues(query);
    if (query.format === 'csv') return csvFile(this.exports.csv(rows, TRACKED_VALUE_COLUMNS), 'tracked-values');
    return { data: await collect(rows) };
  }
}
