import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ActingPrincipal, RequireSession } from '../common/auth/access.decorators';
import type { WorkspacePrincipal } from '../common/auth/principal';
import { ApiProblemResponses } from '../common/errors/api-problem-responses';
import { Idempotent } from '../common/idempotency';
import { type Page, PageQuery } from '../common/pagination/pagination';
import { IdParams } from '../common/validation/id-params';
import { CodeHostsService } from './code-hosts.service';
import {
  CodeHostConnectionDto,
  CodeHostConnectionListDto,
  CodeHostConnectionTestResultDto,
  CreateCodeHostConnectionDto,
  UpdateCodeHostConnectionDto,
} from './dto/code-host-connection.dto';

@ApiTags('code-hosts')
@Controller('code-host-connections')
@RequireSession('workspace:admin')
export class CodeHostsController {
  constructor(private readonly connections: CodeHostsService) {}

  @Get()
  @ApiOperation({ operationId: 'listCodeHostConnections', summary: "List the workspace's code-host connections" })
  @ApiOkResponse({ type: CodeHostConnectionListDto, description: 'A page of connections, oldest first.' })
  @ApiProblemResponses(400)
  list(@Query() query: PageQuery): Promise<Page<CodeHostConnectionDto>> {
    return this.connections.list(query);
  }

  @Post()
  @Idempotent()
  @ApiOperation({
    operationId: 'createCodeHostConnection',
    summary: 'Connect a GitHub App installation or a GitLab token',
  })
  @ApiCreatedResponse({ type: CodeHostConnectionDto, description: 'The connection (without its credential).' })
  @ApiProblemResponses(400, 409, 413)
  create(
    @ActingPrincipal() principal: WorkspacePrincipal,
    @Body() body: CreateCodeHostConnectionDto,
  ): Promise<CodeHostConnectionDto> {
    return this.connections.create(principal, body);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getCodeHostConnection', summary: 'Read a code-host connection' })
  @ApiOkResponse({ type: CodeHostConnectionDto, description: 'The connection.' })
  @ApiProblemResponses(400, 404)
  get(@Param() { id }: IdParams): Promise<CodeHostConnectionDto> {
    return this.connections.get(id);
  }

  @Patch(':id')
  @ApiOperation({ operationId: 'updateCodeHostConnection', summary: 'Change a code-host connection' })
  @ApiOkResponse({ type: CodeHostConnectionDto, description: 'The connection as changed.' })
  @ApiProblemResponses(400, 404, 409, 413)
  update(@Param() { id }: IdParams, @Body() body: UpdateCodeHostConnectionDto): Promise<CodeHostConnectionDto> {
    return this.connections.update(id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteCodeHostConnection', summary: 'Delete a code-host connection' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiProblemResponses(400, 404)
  delete(@Param() { id }: IdParams): Promise<void> {
    return this.connections.delete(id);
  }

  @Post(':id/test')
  @HttpCode(200)
  @ApiOperation({ operationId: 'testCodeHostConnection', summary: "Check that a connection's credential works" })
  @ApiOkResponse({
    type: CodeHostConnectionTestResultDto,
    description: 'Whether the code host accepted the credential, and what it said.',
  })
  @ApiProblemResponses(400, 404)
  test(@Param() { id }: IdParams): Promise<CodeHostConnectionTestResultDto> {
    return this.connections.test(id);
  }
}
