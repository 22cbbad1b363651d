import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ActingPrincipal, RequireScopes } from '../common/auth/access.decorators';
import type { WorkspacePrincipal } from '../common/auth/principal';
import { ApiProblemResponses } from '../common/errors/api-problem-responses';
import { type Page, PageQuery } from '../common/pagination/pagination';
import { IdParams } from '../common/validation/id-params';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyDto, ApiKeyListDto, ApiKeyWithSecretDto, CreateApiKeyDto, RegenerateApiKeyDto } from './dto/api-key.dto';
import { Idempotent } from '../common/idempotency';

@ApiTags('users')
@Controller('users/me')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Get('api-keys')
  @RequireScopes('users:read')
  @ApiOperation({ operationId: 'listApiKeys', summary: "List the caller's API keys" })
  @ApiOkResponse({ type: ApiKeyListDto, description: 'A page of keys, newest first.' })
  @ApiProblemResponses(400)
  list(@ActingPrincipal() principal: WorkspacePrincipal, @Query() query: PageQuery): Promise<Page<ApiKeyDto>> {
    return this.apiKeys.list(principal, query);
  }

  @Post('api-keys')
  @Idempotent()
  @RequireScopes('users:write')
  @ApiOperation({ operationId: 'createApiKey', summary: 'Issue a new API key' })
  @ApiCreatedResponse({ type: ApiKeyWithSecretDto, description: 'The key, with its secret shown this once.' })
  @ApiProblemResponses(400, 413)
  create(
    @ActingPrincipal() principal: WorkspacePrincipal,
    @Body() body: CreateApiKeyDto,
  ): Promise<ApiKeyWithSecretDto> {
    return this.apiKeys.create(principal, body);
  }

  @Delete('api-keys/:id')
  @RequireScopes('users:write')
  @ApiOperation({ operationId: 'revokeApiKey', summary: 'Revoke an API key' })
  @ApiOkResponse({ type: ApiKeyDto, description: 'The revoked key.' })
  @ApiProblemResponses(400, 404)
  revoke(@ActingPrincipal() principal: WorkspacePrincipal, @Param() { id }: IdParams): Promise<ApiKeyDto> {
    return this.apiKeys.revoke(principal, id);
  }

  @Post('api-key')
  @Idempotent()
  @HttpCode(201)
  @RequireScopes('users:write')
  @ApiOperation({ operationId: 'regenerateApiKey', summary: 'Regenerate an API key' })
  @ApiBody({ type: RegenerateApiKeyDto, required: false })
  @ApiCreatedResponse({
    type: ApiKeyWithSecretDto,
    description: 'The replacement key, with its secret shown this once.',
  })
  @ApiProblemResponses(400, 404, 409, 413)
  regenerate(
    @ActingPrincipal() principal: WorkspacePrincipal,
    @Body() body: RegenerateApiKeyDto,
  ): Promise<ApiKeyWithSecretDto> {
    return this.apiKeys.regenerate(principal, body.key_id);
  }
}
