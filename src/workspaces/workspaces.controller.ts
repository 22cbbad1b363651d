import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireSession } from '../common/auth/access.decorators';
import type { SessionPrincipal } from '../common/auth/principal';
import { ApiProblemResponses } from '../common/errors/api-problem-responses';
import { type Page, PageQuery } from '../common/pagination/pagination';
import { IdParams } from '../common/validation/id-params';
import {
  AddedWorkspaceMemberDto,
  AddWorkspaceMemberDto,
  CreateWorkspaceDto,
  MemberParams,
  UpdateWorkspaceDto,
  UpdateWorkspaceMemberDto,
  WorkspaceDto,
  WorkspaceListDto,
  WorkspaceMemberDto,
  WorkspaceMemberListDto,
} from './dto/workspace.dto';
import { WorkspacesService } from './workspaces.service';
import { Idempotent } from '../common/idempotency';

@ApiTags('workspaces')
@Controller('workspaces')
@RequireSession('session')
export class WorkspacesController {
  constructor(private readonly workspaces: WorkspacesService) {}

  @Get()
  @ApiOperation({ operationId: 'listWorkspaces', summary: 'List the workspaces the signed-in person belongs to' })
  @ApiOkResponse({ type: WorkspaceListDto, description: 'A page of workspaces.' })
  @ApiProblemResponses(400)
  list(@CurrentPrincipal() caller: SessionPrincipal, @Query() query: PageQuery): Promise<Page<WorkspaceDto>> {
    return this.workspaces.list(caller.userId, query);
  }

  @Post()
  @Idempotent()
  @ApiOperation({ operationId: 'createWorkspace', summary: 'Create a workspace' })
  @ApiCreatedResponse({ type: WorkspaceDto, description: 'The new workspace.' })
  @ApiProblemResponses(400, 413)
  create(@CurrentPrincipal() caller: SessionPrincipal, @Body() body: CreateWorkspaceDto): Promise<WorkspaceDto> {
    return this.workspaces.create(caller.userId, body.name);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getWorkspace', summary: 'Read a workspace' })
  @ApiOkResponse({ type: WorkspaceDto, description: "The workspace, with the caller's role." })
  @ApiProblemResponses(400, 404)
  get(@CurrentPrincipal() caller: SessionPrincipal, @Param() { id }: IdParams): Promise<WorkspaceDto> {
    return this.workspaces.get(caller.userId, id);
  }

  @Patch(':id')
  @ApiOperation({ operationId: 'updateWorkspace', summary: 'Rename a workspace or change its review policy' })
  @ApiOkResponse({ type: WorkspaceDto, description: 'The workspace as changed.' })
  @ApiProblemResponses(400, 404, 413)
  update(
    @CurrentPrincipal() caller: SessionPrincipal,
    @Param() { id }: IdParams,
    @Body() body: UpdateWorkspaceDto,
  ): Promise<WorkspaceDto> {
    return this.workspaces.update(caller.userId, id, body);
  }

  @Get(':id/members')
  @ApiOperation({ operationId: 'listWorkspaceMembers', summary: "List a workspace's members" })
  @ApiOkResponse({ type: WorkspaceMemberListDto, description: 'A page of members.' })
  @ApiProblemResponses(400, 404)
  members(
    @CurrentPrincipal() caller: SessionPrincipal,
    @Param() { id }: IdParams,
    @Query() query: PageQuery,
  ): Promise<Page<WorkspaceMemberDto>> {
    return this.workspaces.members(caller.userId, id, query);
  }

  @Post(':id/members')
  @Idempotent()
  @ApiOperation({ operationId: 'addWorkspaceMember', summary: 'Add a person to a workspace' })
  @ApiCreatedResponse({ type: AddedWorkspaceMemberDto, description: 'The new member.' })
  @ApiProblemResponses(400, 404, 409, 413)
  addMember(
    @CurrentPrincipal() caller: SessionPrincipal,
    @Param() { id }: IdParams,
    @Body() body: AddWorkspaceMemberDto,
  ): Promise<AddedWorkspaceMemberDto> {
    return this.workspaces.addMember(caller, id, body);
  }

  @Patch(':id/members/:user_id')
  @ApiOperation({ operationId: 'updateWorkspaceMember', summary: "Change a member's role" })
  @ApiOkResponse({ type: WorkspaceMemberDto, description: 'The member with the new role.' })
  @ApiProblemResponses(400, 404, 409, 413)
  updateMember(
    @CurrentPrincipal() caller: SessionPrincipal,
    @Param() params: MemberParams,
    @Body() body: UpdateWorkspaceMemberDto,
  ): Promise<WorkspaceMemberDto> {
    return this.workspaces.updateMember(caller.userId, params.id, params.user_id, body.role);
  }

  @Delete(':id/members/:user_id')
  @HttpCode(204)
  @ApiOperation({ operationId: 'removeWorkspaceMember', summary: 'Remove a member, or leave a workspace' })
  @ApiNoContentResponse({ description: 'Removed.' })
  @ApiProblemResponses(400, 404, 409)
  removeMember(@CurrentPrincipal() caller: SessionPrincipal, @Param() params: MemberParams): Promise<void> {
    return this.workspaces.removeMember(caller.userId, params.id, params.user_id);
  }
}
