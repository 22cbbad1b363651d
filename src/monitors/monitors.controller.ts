import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ActingPrincipal, RequireScopes } from '../common/auth/access.decorators';
import type { WorkspacePrincipal } from '../common/auth/principal';
import { ApiProblemResponses } from '../common/errors/api-problem-responses';
import type { Page } from '../common/pagination/pagination';
import { IdParams } from '../common/validation/id-params';
import { PublicOrigin } from '../http/public-origin';
import { API_PREFIX } from '../http/version-alias.middleware';
import {
  BadgeDto,
  CheckResultDto,
  CheckResultListDto,
  CheckRunDto,
  MonitorDto,
  MonitorListDto,
  TrackedValueDto,
  TrackedValueListDto,
  UptimeDto,
} from './dto/monitor.dto';
import { ChecksQuery, TrackedValuesQuery, UptimeQuery } from './dto/monitor-queries.dto';
import { CreateMonitorDto, ListMonitorsQuery, SetRegionsDto, UpdateMonitorDto } from './dto/monitor-requests.dto';
import { MonitorsService } from './monitors.service';
import { Idempotent } from '../common/idempotency';

@ApiTags('monitors')
@Controller('monitors')
export class MonitorsController {
  constructor(private readonly monitors: MonitorsService) {}

  @Get()
  @RequireScopes('monitors:read')
  @ApiOperation({ operationId: 'listMonitors', summary: 'List monitors' })
  @ApiOkResponse({ type: MonitorListDto, description: 'A page of monitors, oldest first.' })
  @ApiProblemResponses(400)
  list(@Query() query: ListMonitorsQuery, @PublicOrigin() origin: string): Promise<Page<MonitorDto>> {
    return this.monitors.list(query, origin);
  }

  @Post()
  @Idempotent()
  @RequireScopes('monitors:write')
  @ApiOperation({ operationId: 'createMonitor', summary: 'Create a monitor' })
  @ApiCreatedResponse({ type: MonitorDto, description: 'The new monitor.' })
  @ApiProblemResponses(400, 409, 413)
  async create(
    @ActingPrincipal() principal: WorkspacePrincipal,
    @Body() body: CreateMonitorDto,
    @PublicOrigin() origin: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MonitorDto> {
    const monitor = await this.monitors.create(principal, body, origin);
    response.location(`${API_PREFIX}/monitors/${monitor.id}`);
    return monitor;
  }

  @Get(':id')
  @RequireScopes('monitors:read')
  @ApiOperation({ operationId: 'getMonitor', summary: 'Read a monitor' })
  @ApiOkResponse({ type: MonitorDto, description: 'The monitor.' })
  @ApiProblemResponses(400, 404)
  get(@Param() { id }: IdParams, @PublicOrigin() origin: string): Promise<MonitorDto> {
    return this.monitors.get(id, origin);
  }

  @Patch(':id')
  @RequireScopes('monitors:write')
  @ApiOperation({ operationId: 'updateMonitor', summary: "Change a monitor's settings, pause or resume it" })
  @ApiOkResponse({ type: MonitorDto, description: 'The monitor with its new settings.' })
  @ApiProblemResponses(400, 404, 413)
  update(
    @Param() { id }: IdParams,
    @Body() body: UpdateMonitorDto,
    @PublicOrigin() origin: string,
  ): Promise<MonitorDto> {
    return this.monitors.update(id, body, origin);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('monitors:write')
  @ApiOperation({
    operationId: 'deleteMonitor',
    summary: 'Delete a monitor with its results, changes and tracked values',
  })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiProblemResponses(400, 404)
  delete(@Param() { id }: IdParams): Promise<void> {
    return this.monitors.delete(id);
  }

  @Post(':id/check')
  @HttpCode(200)
  @RequireScopes('monitors:write')
  @ApiOperation({
    operationId: 'checkMonitor',
    summary: 'Check a monitor now, in each of its regions, and return the results',
  })
  @ApiOkResponse({ type: CheckRunDto, description: 'The results, one per region, and the monitor as they left it.' })
  @ApiProblemResponses(400, 404, 409, 503)
  check(@Param() { id }: IdParams, @PublicOrigin() origin: string): Promise<CheckRunDto> {
    return this.monitors.checkNow(id, origin);
  }

  @Get(':id/uptime')
  @RequireScopes('monitors:read')
  @ApiOperation({
    operationId: 'getMonitorUptime',
    summary: 'Uptime over 24 hours, 7 days and 30 days, with response-time history',
  })
  @ApiOkResponse({
    type: UptimeDto,
    description: 'Uptime percentages (null without checks in the window) and average response times.',
  })
  @ApiProblemResponses(400, 404)
  uptime(@Param() { id }: IdParams, @Query() query: UptimeQuery): Promise<UptimeDto> {
    return this.monitors.uptime(id, query);
  }

  @Put(':id/regions')
  @RequireScopes('monitors:write')
  @ApiOperation({ operationId: 'setMonitorRegions', summary: 'Replace the regions a monitor is checked from' })
  @ApiOkResponse({ type: MonitorDto, description: 'The monitor with its new regions.' })
  @ApiProblemResponses(400, 404, 409, 413)
  setRegions(
    @Param() { id }: IdParams,
    @Body() body: SetRegionsDto,
    @PublicOrigin() origin: string,
  ): Promise<MonitorDto> {
    return this.monitors.setRegions(id, body.regions, origin);
  }

  @Post(':id/badge')
  @HttpCode(200)
  @RequireScopes('monitors:write')
  @ApiOperation({ operationId: 'enableMonitorBadge', summary: 'Enable the public status badge' })
  @ApiOkResponse({ type: BadgeDto, description: 'The public badge.' })
  @ApiProblemResponses(400, 404)
  enableBadge(@Param() { id }: IdParams): Promise<BadgeDto> {
    return this.monitors.enableBadge(id);
  }

  @Delete(':id/badge')
  @HttpCode(204)
  @RequireScopes('monitors:write')
  @ApiOperation({
    operationId: 'disableMonitorBadge',
    summary: 'Disable the public status badge; its URL stops answering',
  })
  @ApiNoContentResponse({ description: 'Disabled.' })
  @ApiProblemResponses(400, 404)
  disableBadge(@Param() { id }: IdParams): Promise<void> {
    return this.monitors.disableBadge(id);
  }

  @Get(':id/checks')
  @RequireScopes('monitors:read')
  @ApiOperation({ operationId: 'listMonitorChecks', summary: "A monitor's check results, newest first" })
  @ApiOkResponse({ type: CheckResultListDto, description: 'A page of results, newest first.' })
  @ApiProblemResponses(400, 404)
  checks(@Param() { id }: IdParams, @Query() query: ChecksQuery): Promise<Page<CheckResultDto>> {
    return this.monitors.checks(id, query);
  }

  @Get(':id/tracked-values')
  @RequireScopes('monitors:read')
  @ApiOperation({ operationId: 'listTrackedValues', summary: "Values captured by a monitor's checks, newest first" })
  @ApiOkResponse({ type: TrackedValueListDto, description: 'A page of readings, newest first.' })
  @ApiProblemResponses(400, 404)
  trackedValues(@Param() { id }: IdParams, @Query() query: TrackedValuesQuery): Promise<Page<TrackedValueDto>> {
    return this.monitors.trackedValues(id, query);
  }
}
