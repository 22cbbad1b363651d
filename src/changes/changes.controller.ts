import { Body, Controller, Get, Param, Patch, Query, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '../common/auth/access.decorators';
import { ApiProblemResponses } from '../common/errors/api-problem-responses';
import { type Page, PageQuery } from '../common/pagination/pagination';
import { IdParams } from '../common/validation/id-params';
import { ChangeDetailDto, type ChangeDto, ChangeListDto } from './dto/change.dto';
import { ChangeScreenshotParams, ListChangesQuery, UpdateChangeDto } from './dto/change-requests.dto';
import { ChangesService } from './changes.service';

@ApiTags('changes')
@Controller()
export class ChangesController {
  constructor(private readonly changes: ChangesService) {}

  @Get('changes')
  @RequireScopes('changes:read')
  @ApiOperation({ operationId: 'listChanges', summary: "Changes detected across the caller's monitors, newest first" })
  @ApiOkResponse({ type: ChangeListDto, description: 'A page of changes, newest first.' })
  @ApiProblemResponses(400)
  list(@Query() query: ListChangesQuery): Promise<Page<ChangeDto>> {
    return this.changes.list(query);
  }

  @Get('changes/:id')
  @RequireScopes('changes:read')
  @ApiOperation({ operationId: 'getChange', summary: 'A change with its diff' })
  @ApiOkResponse({ type: ChangeDetailDto, description: 'The change.' })
  @ApiProblemResponses(400, 404)
  get(@Param() { id }: IdParams): Promise<ChangeDetailDto> {
    return this.changes.get(id);
  }

  @Patch('changes/:id')
  @RequireScopes('changes:write')
  @ApiOperation({ operationId: 'updateChange', summary: 'Mark a change useful or noise, archive or restore it' })
  @ApiOkResponse({ type: ChangeDetailDto, description: 'The change as updated.' })
  @ApiProblemResponses(400, 404, 413)
  update(@Param() { id }: IdParams, @Body() body: UpdateChangeDto): Promise<ChangeDetailDto> {
    return this.changes.update(id, body);
  }

  @Get('changes/:id/screenshots/:name')
  @RequireScopes('changes:read')
  @ApiOperation({
    operationId: 'getChangeScreenshot',
    summary: 'The screenshot before or after a change of a browser monitor (PNG)',
  })
  @ApiProduces('image/png')
  @ApiOkResponse({
    description: 'The screenshot.',
    content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } as object } },
  })
  @ApiProblemResponses(400, 404)
  async screenshot(@Param() params: ChangeScreenshotParams): Promise<StreamableFile> {
    const data = await this.changes.screenshot(params.id, params.name);
    return new StreamableFile(data, { type: 'image/png', length: data.length });
  }

  @Get('monitors/:id/timeline')
  @RequireScopes('changes:read')
  @ApiOperation({ operationId: 'getMonitorTimeline', summary: "A monitor's changes with screenshots, newest first" })
  @ApiOkResponse({ type: ChangeListDto, description: "A page of the monitor's changes, newest first." })
  @ApiProblemResponses(400, 404)
  timeline(@Param() { id }: IdParams, @Query() query: PageQuery): Promise<Page<ChangeDto>> {
    return this.changes.timeline(id, query);
  }
}
