import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { ActingPrincipal, RequireScopes, RequireSession } from '../common/auth/access.decorators';
import type { WorkspacePrincipal, WorkspaceSession } from '../common/auth/principal';
import { ApiProblemResponses } from '../common/errors/api-problem-responses';
import type { Page } from '../common/pagination/pagination';
import { IdParams } from '../common/validation/id-params';
import { API_PREFIX } from '../http/version-alias.middleware';
import { A11yScansService } from './a11y-scans.service';
import {
  A11yAttestationDto,
  A11yReportDto,
  A11yScanDto,
  A11yScanListDto,
  AttestA11yScanDto,
  ListA11yScansQuery,
  ListAllA11yScansQuery,
  StartA11yScanDto,
} from './dto/a11y-scan.dto';
import { Idempotent } from '../common/idempotency';

@ApiTags('accessibility')
@Controller()
export class A11yScansController {
  constructor(private readonly scans: A11yScansService) {}

  @Post('monitors/:id/a11y-scan')
  @Idempotent()
  @HttpCode(202)
  @RequireScopes('monitors:write')
  @ApiOperation({ operationId: 'startA11yScan', summary: "Scan a monitor's page for accessibility problems" })
  @ApiBody({ type: StartA11yScanDto, required: false })
  @ApiAcceptedResponse({
    type: A11yScanDto,
    description: 'The queued scan.',
    headers: { Location: { description: "The scan's URL.", schema: { type: 'string' } } },
  })
  @ApiProblemResponses(400, 404, 413)
  async start(
    @ActingPrincipal() principal: WorkspacePrincipal,
    @Param() { id }: IdParams,
    @Body() body: StartA11yScanDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<A11yScanDto> {
    const scan = await this.scans.start(principal, id, body.viewports);
    response.location(`${API_PREFIX}/a11y-scans/${scan.id}`);
    return scan;
  }

  @Get('monitors/:id/a11y-scans')
  @RequireScopes('monitors:read')
  @ApiOperation({ operationId: 'listMonitorA11yScans', summary: "List a monitor's accessibility scans" })
  @ApiOkResponse({ type: A11yScanListDto, description: 'A page of scans.' })
  @ApiProblemResponses(400, 404)
  listForMonitor(@Param() { id }: IdParams, @Query() query: ListA11yScansQuery): Promise<Page<A11yScanDto>> {
    return this.scans.listForMonitor(id, query);
  }

  @Get('a11y-scans')
  @RequireScopes('monitors:read')
  @ApiOperation({ operationId: 'listA11yScans', summary: 'List accessibility scans across monitors' })
  @ApiOkResponse({ type: A11yScanListDto, description: 'A page of scans.' })
  @ApiProblemResponses(400)
  list(@Query() query: ListAllA11yScansQuery): Promise<Page<A11yScanDto>> {
    return this.scans.list(query);
  }

  @Get('a11y-scans/:id')
  @RequireScopes('monitors:read')
  @ApiOperation({ operationId: 'getA11yScan', summary: 'Read an accessibility scan' })
  @ApiOkResponse({ type: A11yScanDto, description: 'The scan.' })
  @ApiProblemResponses(400, 404)
  get(@Param() { id }: IdParams): Promise<A11yScanDto> {
    return this.scans.get(id);
  }

  @Get('a11y-scans/:id/report')
  @RequireScopes('monitors:read')
  @ApiOperation({
    operationId: 'getA11yScanReport',
    summary: "A scan's findings compared with the monitor's attested baseline",
  })
  @ApiOkResponse({ type: A11yReportDto, description: 'The report.' })
  @ApiProblemResponses(400, 404)
  report(@Param() { id }: IdParams): Promise<A11yReportDto> {
    return this.scans.report(id);
  }

  @Post('a11y-scans/:id/attest')
  @Idempotent()
  @RequireSession('a11y-scans:attest')
  @ApiOperation({ operationId: 'attestA11yScan', summary: "Make a completed scan the monitor's attested baseline" })
  @ApiCreatedResponse({
    type: A11yAttestationDto,
    description: "The attestation; the scan is now the monitor's baseline.",
  })
  @ApiProblemResponses(400, 404, 409, 413)
  attest(
    @ActingPrincipal() principal: WorkspaceSession,
    @Param() { id }: IdParams,
    @Body() body: AttestA11yScanDto,
  ): Promise<A11yAttestationDto> {
    return this.scans.attest(principal, id, body.note);
  }
}
