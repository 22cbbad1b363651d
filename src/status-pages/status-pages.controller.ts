import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ActingPrincipal, RequireScopes } from '../common/auth/access.decorators';
import type { WorkspacePrincipal } from '../common/auth/principal';
import { Idempotent } from '../common/idempotency';
import { ApiProblemResponses } from '../common/errors/api-problem-responses';
import { type Page, PageQuery } from '../common/pagination/pagination';
import { IdParams } from '../common/validation/id-params';
import { API_PREFIX } from '../http/version-alias.middleware';
import {
  CreateIncidentDto,
  CreateStatusPageDto,
  IncidentDto,
  IncidentListDto,
  IncidentParams,
  StatusPageDto,
  StatusPageListDto,
  StatusPageSubscriberDto,
  StatusPageSubscriberListDto,
  SubscriberParams,
  UpdateIncidentDto,
  UpdateStatusPageDto,
} from './dto/status-pages.dto';
import { StatusPagesService } from './status-pages.service';
import { SubscriptionsService } from './subscribers/subscriptions.service';

@ApiTags('status-pages')
@Controller('status-pages')
export class StatusPagesController {
  constructor(
    private readonly statusPages: StatusPagesService,
    private readonly subscriptions: SubscriptionsService,
  ) {}

  @Get()
  @RequireScopes('monitors:read')
  @ApiOperation({ operationId: 'listStatusPages', summary: "List the workspace's status pages" })
  @ApiOkResponse({ type: StatusPageListDto, description: 'A page of status pages, oldest first.' })
  @ApiProblemResponses(400, 404)
  list(@Query() query: PageQuery): Promise<Page<StatusPageDto>> {
    return this.statusPages.list(query);
  }

  @Post()
  @Idempotent()
  @RequireScopes('monitors:write')
  @ApiOperation({ operationId: 'createStatusPage', summary: 'Create a public status page' })
  @ApiCreatedResponse({ type: StatusPageDto, description: 'The new status page.' })
  @ApiProblemResponses(400, 404, 409, 413)
  async create(
    @ActingPrincipal() principal: WorkspacePrincipal,
    @Body() body: CreateStatusPageDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StatusPageDto> {
    const page = await this.statusPages.create(principal, body);
    response.location(`${API_PREFIX}/status-pages/${page.id}`);
    return page;
  }

  @Get(':id')
  @RequireScopes('monitors:read')
  @ApiOperation({ operationId: 'getStatusPage', summary: 'Read a status page' })
  @ApiOkResponse({ type: StatusPageDto, description: 'The status page.' })
  @ApiProblemResponses(400, 404)
  get(@Param() { id }: IdParams): Promise<StatusPageDto> {
    return this.statusPages.get(id);
  }

  @Patch(':id')
  @RequireScopes('monitors:write')
  @ApiOperation({ operationId: 'updateStatusPage', summary: 'Change a status page' })
  @ApiOkResponse({ type: StatusPageDto, description: 'The status page as changed.' })
  @ApiProblemResponses(400, 404, 409, 413)
  update(@Param() { id }: IdParams, @Body() body: UpdateStatusPageDto): Promise<StatusPageDto> {
    return this.statusPages.update(id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('monitors:write')
  @ApiOperation({ operationId: 'deleteStatusPage', summary: 'Delete a status page' })
  @ApiNoContentResponse({ description: 'Deleted, with its incidents.' })
  @ApiProblemResponses(400, 404)
  delete(@Param() { id }: IdParams): Promise<void> {
    return this.statusPages.delete(id);
  }

  @Get(':id/subscribers')
  @RequireScopes('monitors:read')
  @ApiOperation({ operationId: 'listStatusPageSubscribers', summary: "List a status page's subscribers" })
  @ApiOkResponse({ type: StatusPageSubscriberListDto, description: 'A page of subscribers, oldest first.' })
  @ApiProblemResponses(400, 404)
  listSubscribers(@Param() { id }: IdParams, @Query() query: PageQuery): Promise<Page<StatusPageSubscriberDto>> {
    return this.subscriptions.list(id, query);
  }

  @Delete(':id/subscribers/:subscriber_id')
  @HttpCode(204)
  @RequireScopes('monitors:write')
  @ApiOperation({ operationId: 'deleteStatusPageSubscriber', summary: 'Remove a subscriber' })
  @ApiNoContentResponse({ description: 'Removed.' })
  @ApiProblemResponses(400, 404)
  removeSubscriber(@Param() { id, subscriber_id }: SubscriberParams): Promise<void> {
    return this.subscriptions.remove(id, subscriber_id);
  }

  @Get(':id/incidents')
  @RequireScopes('monitors:read')
  @ApiOperation({ operationId: 'listIncidents', summary: "List a status page's incidents" })
  @ApiOkResponse({ type: IncidentListDto, description: 'A page of incidents, newest first.' })
  @ApiProblemResponses(400, 404)
  listIncidents(@Param() { id }: IdParams, @Query() query: PageQuery): Promise<Page<IncidentDto>> {
    return this.statusPages.listIncidents(id, query);
  }

  @Post(':id/incidents')
  @Idempotent()
  @RequireScopes('monitors:write')
  @ApiOperation({ operationId: 'createIncident', summary: 'Open an incident on a status page' })
  @ApiCreatedResponse({ type: IncidentDto, description: 'The incident with its first update.' })
  @ApiProblemResponses(400, 404, 413)
  createIncident(@Param() { id }: IdParams, @Body() body: CreateIncidentDto): Promise<IncidentDto> {
    return this.statusPages.createIncident(id, body);
  }

  @Patch(':id/incidents/:incident_id')
  @RequireScopes('monitors:write')
  @ApiOperation({ operationId: 'updateIncident', summary: 'Post an update to an incident' })
  @ApiOkResponse({ type: IncidentDto, description: 'The incident with all its updates.' })
  @ApiProblemResponses(400, 404, 409, 413)
  updateIncident(@Param() { id, incident_id }: IncidentParams, @Body() body: UpdateIncidentDto): Promise<IncidentDto> {
    return this.statusPages.updateIncident(id, incident_id, body);
  }
}
