import { Body, Controller, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { AdminApiKeyDto, AdminApiKeyListDto, SetRateLimitDto } from '../api-keys/dto/api-key.dto';
import { RequireSession } from '../common/auth/access.decorators';
import { ApiProblemResponses } from '../common/errors/api-problem-responses';
import { type Page, PageQuery } from '../common/pagination/pagination';
import { IdParams } from '../common/validation/id-params';
import { CreateUserDto, UserDto, UserListDto } from '../users/dto/user.dto';
import { UsersService } from '../users/users.service';
import { Idempotent } from '../common/idempotency';

@ApiTags('admin')
@Controller('admin')
@RequireSession('admin')
export class AdminController {
  constructor(
    private readonly users: UsersService,
    private readonly apiKeys: ApiKeysService,
  ) {}

  @Get('users')
  @ApiOperation({ operationId: 'listUsers', summary: 'List users' })
  @ApiOkResponse({ type: UserListDto, description: 'A page of users, oldest first.' })
  @ApiProblemResponses(400)
  listUsers(@Query() query: PageQuery): Promise<Page<UserDto>> {
    return this.users.list(query);
  }

  @Post('users')
  @Idempotent()
  @ApiOperation({ operationId: 'createUser', summary: 'Add a person' })
  @ApiCreatedResponse({ type: UserDto, description: 'The new user.' })
  @ApiProblemResponses(400, 409, 413)
  createUser(@Body() body: CreateUserDto): Promise<UserDto> {
    return this.users.addPerson(body);
  }

  @Get('api-keys')
  @ApiOperation({ operationId: 'listAllApiKeys', summary: "List every user's API keys with their rate limits" })
  @ApiOkResponse({ type: AdminApiKeyListDto, description: 'A page of keys, newest first.' })
  @ApiProblemResponses(400)
  listApiKeys(@Query() query: PageQuery): Promise<Page<AdminApiKeyDto>> {
    return this.apiKeys.listAll(query);
  }

  @Put('api-keys/:id/rate-limit')
  @ApiOperation({ operationId: 'setApiKeyRateLimit', summary: "Set a key's rate-limit ceiling" })
  @ApiOkResponse({ type: AdminApiKeyDto, description: 'The key with its new ceiling.' })
  @ApiProblemResponses(400, 404, 413)
  setRateLimit(@Param() { id }: IdParams, @Body() body: SetRateLimitDto): Promise<AdminApiKeyDto> {
    return this.apiKeys.setRateLimit(id, body.requests_per_minute);
  }
}
