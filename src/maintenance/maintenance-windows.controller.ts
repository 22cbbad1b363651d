import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ActingPrincipal, RequireScopes } from '../common/auth/access.decorators';
import type { WorkspacePrincipal } from '../common/auth/principal';
import { ApiProblemResponses } from '../common/errors/api-problem-responses';
import { Idempotent } from '../common/idempotency';
import { type Page, PageQuery } from '../common/pagination/pagination';
import { IdParams } from '../common/validation/id-params';
import { API_PREFIX } from '../http/version-alias.middleware';
import {
  CreateMaintenanceWindowDto,
  MaintenanceWindowDto,
  MaintenanceWindowListDto,
  UpdateMaintenanceWindowDto,
} from './dto/maintenance-windows.dto';
import { MaintenanceWindowsService } from './maintenance-windows.service';

@ApiTags('maintenance')
@Controller('maintenance-windows')
export class MaintenanceWindowsController {
  constructor(private readonly windows: MaintenanceWindowsService) {}

  @Get()
  @RequireScopes('monitors:read')
  @ApiOperation({ operationId: 'listMaintenanceWindows', summary: "List the workspace's maintenance windows" })
  @ApiOkResponse({ type: MaintenanceWindowListDto, description: 'A page of maintenance windows, newest first.' })
  @ApiProblemResponses(400, 404)
  list(@Query() query: PageQuery): Promise<Page<MaintenanceWindowDto>> {
    return this.windows.list(query);
  }

  @Post()
  @Idempotent()
  @RequireScopes('monitors:write')
  @ApiOperation({
    operationId: 'createMaintenanceWindow',
    summary: 'Schedule a maintenance window, or start one now',
  })
  @ApiCreatedResponse({ type: MaintenanceWindowDto, description: 'The new maintenance window.' })
  @ApiProblemResponses(400, 404, 413)
  async create(
    @ActingPrincipal() principal: WorkspacePrincipal,
    @Body() body: CreateMaintenanceWindowDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MaintenanceWindowDto> {
    const window = await this.windows.create(principal, body);
    response.location(`${API_PREFIX}/maintenance-windows/${window.id}`);
    return window;
  }

  @Get(':id')
  @RequireScopes('monitors:read')
  @ApiOperation({ operationId: 'getMaintenanceWindow', summary: 'Read a maintenance window' })
  @ApiOkResponse({ type: MaintenanceWindowDto, description: 'The maintenance window.' })
  @ApiProblemResponses(400, 404)
  get(@Param() { id }: IdParams): Promise<MaintenanceWindowDto> {
    return this.windows.get(id);
  }

  @Patch(':id')
  @RequireScopes('monitors:write')
  @ApiOperation({ operationId: 'updateMaintenanceWindow', summary: 'Change a maintenance window' })
  @ApiOkResponse({ type: MaintenanceWindowDto, description: 'The maintenance window as changed.' })
  @ApiProblemResponses(400, 404, 413)
  update(@Param() { id }: IdParams, @Body() body: UpdateMaintenanceWindowDto): Promise<MaintenanceWindowDto> {
    return this.windows.update(id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('monitors:write')
  @ApiOperation({ operationId: 'deleteMaintenanceWindow', summary: 'Delete a maintenance window' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiProblemResponses(400, 404)
  delete(@Param() { id }: IdParams): Promise<void> {
    return this.windows.delete(id);
  }

  @Post(':id/end')
  @HttpCode(200)
  @RequireScopes('monitors:write')
  @ApiOperation({ operationId: 'endMaintenanceWindow', summary: 'End the current occurrence now' })
  @ApiOkResponse({ type: MaintenanceWindowDto, description: 'The window, ended.' })
  @ApiProblemResponses(400, 404, 409)
  end(@Param() { id }: IdParams): Promise<MaintenanceWindowDto> {
    return this.windows.end(id);
  }
}
