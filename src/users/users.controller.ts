import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ActingPrincipal, RequireScopes } from '../common/auth/access.decorators';
import type { WorkspacePrincipal } from '../common/auth/principal';
import { CurrentUserDto } from './dto/user.dto';
import { UsersService } from './users.service';

@ApiTags('users')
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get('me')
  @RequireScopes('users:read')
  @ApiOperation({ operationId: 'getCurrentUser', summary: 'Current user profile, plan and usage' })
  @ApiOkResponse({ type: CurrentUserDto, description: "The caller's profile, plan and usage." })
  me(@ActingPrincipal() principal: WorkspacePrincipal): Promise<CurrentUserDto> {
    return this.users.currentUser(principal);
  }
}
