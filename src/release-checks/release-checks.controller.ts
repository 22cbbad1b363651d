import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res, StreamableFile } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { ActingPrincipal, RequireScopes, RequireSession } from '../common/auth/access.decorators';
import type { WorkspacePrincipal, WorkspaceSession } from '../common/auth/principal';
import { ApiProblemResponses } from '../common/errors/api-problem-responses';
import type { Page } from '../common/pagination/pagination';
import { IdParams } from '../common/validation/id-params';
import { API_PREFIX } from '../http/version-alias.middleware';
import { CreateReleaseCheckDto } from './dto/create-release-check.dto';
import {
  ArtifactFileParams,
  ArtifactParams,
  GetReleaseCheckQuery,
  ListReleaseChecksQuery,
} from './dto/release-check-queries.dto';
import { ArtifactDto, ReleaseCheckDto, type ReleaseCheckFieldsDto, ReleaseCheckListDto } from './dto/release-check.dto';
import { PairDecisionRequestDto, ReviewReleaseCheckDto } from './dto/review.dto';
import { ReleaseChecksService } from './release-checks.service';
import { Idempotent } from '../common/idempotency';

@ApiTags('release-checks')
@Controller('release-checks')
export class ReleaseChecksController {
  constructor(private readonly releaseChecks: ReleaseChecksService) {}

  @Get()
  @RequireScopes('monitors:read')
  @ApiOperation({ operationId: 'listReleaseChecks', summary: 'List release checks, newest first' })
  @ApiOkResponse({ type: ReleaseCheckListDto, description: 'A page of release checks, newest first.' })
  @ApiProblemResponses(400)
  list(@Query() query: ListReleaseChecksQuery): Promise<Page<ReleaseCheckFieldsDto>> {
    return this.releaseChecks.list(query);
  }

  @Post()
  @Idempotent()
  @RequireScopes('monitors:write', 'monitors:read')
  @ApiOperation({ operationId: 'createReleaseCheck', summary: 'Create a release check' })
  @ApiOkResponse({ type: ReleaseCheckDto, description: 'An identical earlier request with this request_key.' })
  @ApiCreatedResponse({ type: ReleaseCheckDto, description: 'The new check; collection has been queued.' })
  @ApiProblemResponses(400, 413, 422)
  async create(
    @ActingPrincipal() principal: WorkspacePrincipal,
    @Body() body: CreateReleaseCheckDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ReleaseCheckDto> {
    const { check, created } = await this.releaseChecks.create(principal, body);
    response.status(created ? 201 : 200);
    if (created) response.location(`${API_PREFIX}/release-checks/${check.id}`);
    return check;
  }

  @Get(':id')
  @RequireScopes('monitors:read')
  @ApiOperation({
    operationId: 'getReleaseCheck',
    summary: 'Read a release check with its gate, revision and artifacts',
  })
  @ApiOkResponse({ type: ReleaseCheckDto, description: 'The check.' })
  @ApiProblemResponses(400, 404)
  get(@Param() { id }: IdParams, @Query() query: GetReleaseCheckQuery): Promise<ReleaseCheckDto> {
    return this.releaseChecks.get(id, query.revision);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('monitors:write')
  @ApiOperation({ operationId: 'deleteReleaseCheck', summary: 'Delete a release check with its evidence' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiProblemResponses(400, 404)
  delete(@Param() { id }: IdParams): Promise<void> {
    return this.releaseChecks.delete(id);
  }

  @Post(':id/review')
  @HttpCode(200)
  @RequireSession('release-checks:review')
  @ApiOperation({ operationId: 'reviewReleaseCheck', summary: 'Approve or reject a release check' })
  @ApiOkResponse({ type: ReleaseCheckDto, description: 'The check with the decision recorded.' })
  @ApiProblemResponses(400, 404, 409, 413)
  review(
    @ActingPrincipal() principal: WorkspaceSession,
    @Param() { id }: IdParams,
    @Body() body: ReviewReleaseCheckDto,
  ): Promise<ReleaseCheckDto> {
    return this.releaseChecks.review(principal, id, body);
  }

  @Put(':id/artifacts/:artifact_id/decision')
  @RequireSession('release-checks:review')
  @ApiOperation({ operationId: 'decideReleaseCheckPair', summary: 'Accept or reject one page pair of a release check' })
  @ApiOkResponse({ type: ArtifactDto, description: 'The pair with its decision.' })
  @ApiProblemResponses(400, 404, 409, 413)
  decide(
    @ActingPrincipal() principal: WorkspaceSession,
    @Param() { id, artifact_id }: ArtifactParams,
    @Body() body: PairDecisionRequestDto,
  ): Promise<ArtifactDto> {
    return this.releaseChecks.decidePair(principal, id, artifact_id, body);
  }

  @Post(':id/rerun')
  @Idempotent()
  @HttpCode(202)
  @RequireScopes('monitors:write')
  @ApiOperation({ operationId: 'rerunReleaseCheck', summary: 'Collect the evidence again as a new revision' })
  @ApiAcceptedResponse({ type: ReleaseCheckDto, description: 'The check at its new revision.' })
  @ApiProblemResponses(400, 404)
  rerun(@Param() { id }: IdParams): Promise<ReleaseCheckDto> {
    return this.releaseChecks.rerun(id);
  }

  @Get(':id/artifacts/:artifact_id/:name')
  @RequireScopes('monitors:read')
  @ApiOperation({
    operationId: 'getReleaseCheckArtifactFile',
    summary: 'Download a screenshot, diff image or rendered text of an artifact',
  })
  @ApiProduces('image/png', 'text/plain')
  @ApiOkResponse({
    description: 'The file.',
    content: {
      'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } as object },
      'text/plain': { schema: { type: 'string' } },
    },
  })
  @ApiProblemResponses(400, 404)
  async artifactFile(@Param() params: ArtifactFileParams): Promise<StreamableFile> {
    const file = await this.releaseChecks.artifactFile(params.id, params.artifact_id, params.name);
    return new StreamableFile(file.data, { type: file.contentType, length: file.data.length });
  }
}
