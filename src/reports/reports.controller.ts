import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { ActingPrincipal, RequireScopes } from '../common/auth/access.decorators';
import type { WorkspacePrincipal } from '../common/auth/principal';
import { ApiProblemResponses } from '../common/errors/api-problem-responses';
import { Idempotent } from '../common/idempotency';
import { type Page, PageQuery } from '../common/pagination/pagination';
import { IdParams } from '../common/validation/id-params';
import { API_PREFIX } from '../http/version-alias.middleware';
import {
  CreateReportDto,
  REPORT_DOCUMENT_SCHEMA,
  ReportDto,
  ReportListDto,
  ReportRunDto,
  RunParams,
} from './dto/reports.dto';
import { ReportsService } from './reports.service';

@ApiTags('reports')
@Controller('reports')
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Get()
  @RequireScopes('reports:read')
  @ApiOperation({ operationId: 'listReports', summary: "List the workspace's reports" })
  @ApiOkResponse({ type: ReportListDto, description: 'A page of reports, newest first.' })
  @ApiProblemResponses(400, 404)
  list(@Query() query: PageQuery): Promise<Page<ReportDto>> {
    return this.reports.list(query);
  }

  @Post()
  @Idempotent()
  @RequireScopes('reports:write')
  @ApiOperation({ operationId: 'createReport', summary: 'Create a report' })
  @ApiCreatedResponse({ type: ReportDto, description: 'The new report, with no runs yet.' })
  @ApiProblemResponses(400, 404, 409, 413)
  async create(
    @ActingPrincipal() principal: WorkspacePrincipal,
    @Body() body: CreateReportDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ReportDto> {
    const report = await this.reports.create(principal, body);
    response.location(`${API_PREFIX}/reports/${report.id}`);
    return report;
  }

  @Get(':id')
  @RequireScopes('reports:read')
  @ApiOperation({ operationId: 'getReport', summary: 'Read a report and its latest runs' })
  @ApiOkResponse({ type: ReportDto, description: 'The report.' })
  @ApiProblemResponses(400, 404)
  get(@Param() { id }: IdParams): Promise<ReportDto> {
    return this.reports.get(id);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('reports:write')
  @ApiOperation({ operationId: 'deleteReport', summary: "Delete a report and its runs' files" })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiProblemResponses(400, 404)
  delete(@Param() { id }: IdParams): Promise<void> {
    return this.reports.delete(id);
  }

  @Post(':id/generate')
  @Idempotent()
  @RequireScopes('reports:write')
  @ApiOperation({ operationId: 'generateReport', summary: 'Generate a report now' })
  @ApiOkResponse({ type: ReportRunDto, description: 'The run finished within 30 seconds.' })
  @ApiAcceptedResponse({ type: ReportRunDto, description: 'The run is queued or generating; poll it.' })
  @ApiProblemResponses(400, 404)
  async generate(@Param() { id }: IdParams, @Res({ passthrough: true }) response: Response): Promise<ReportRunDto> {
    const { run, finished } = await this.reports.generate(id);
    if (finished) {
      response.status(200);
    } else {
      response.status(202).location(`${API_PREFIX}/reports/${id}/runs/${run.id}`);
    }
    return run;
  }

  @Get(':id/runs/:run_id')
  @RequireScopes('reports:read')
  @ApiOperation({ operationId: 'getReportRun', summary: 'Read a run of a report' })
  @ApiOkResponse({ type: ReportRunDto, description: 'The run.' })
  @ApiProblemResponses(400, 404)
  getRun(@Param() { id, run_id }: RunParams): Promise<ReportRunDto> {
    return this.reports.getRun(id, run_id);
  }

  @Get(':id/runs/:run_id/download')
  @RequireScopes('reports:read')
  @ApiOperation({ operationId: 'downloadReportRun', summary: "Download a run's file" })
  @ApiOkResponse({
    description: 'The file.',
    content: {
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
      'text/csv': { schema: { type: 'string' } },
      'application/json': { schema: REPORT_DOCUMENT_SCHEMA },
    },
  })
  @ApiProblemResponses(400, 404, 409)
  async download(@Param() { id, run_id }: RunParams, @Res() response: Response): Promise<void> {
    const file = await this.reports.download(id, run_id);
    response
      .status(200)
      .type(file.mediaType)
      .attachment(file.fileName)
      .setHeader('ETag', `"${file.sha256}"`)
      .send(file.data);
  }
}
