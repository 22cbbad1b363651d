import { ApiProperty } from '@nestjs/swagger';
import { USER_ROLES, type UserRole, WORKSPACE_ROLES, type WorkspaceRole } from '../../common/auth/scopes';
import { PageOf } from '../../common/pagination/pagination';
import { EmailField, EnumField, TextField } from '../../common/validation/fields';
import { ReviewPolicyDto } from '../../workspaces/dto/workspace.dto';
import type { User } from '../user.entity';

export class UserDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string', format: 'email' })
  email: string;

  @ApiProperty({ enum: USER_ROLES, enumName: 'Role' })
  role: UserRole;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at: string;

  static from(user: User): UserDto {
    return { id: user.id, email: user.email, role: user.role, created_at: user.createdAt.toISOString() };
  }
}

export const UserListDto = PageOf(UserDto, 'UserList');

export class CreateUserDto {
  @EmailField()
  email: string;

  @TextField({ minLength: 12, maxLength: 1024 })
  password: string;

  @EnumField(USER_ROLES, 'Role')
  role: UserRole;
}

export class PlanLimitsDto {
  @ApiProperty({ type: 'integer' })
  monitors: number;

  @ApiProperty({ type: 'integer' })
  checks_per_month: number;

  @ApiProperty({ type: 'integer' })
  release_checks_per_month: number;

  @ApiProperty({ type: 'integer' })
  alert_destinations: number;

  @ApiProperty({ type: 'integer' })
  status_pages: number;

  @ApiProperty({ type: 'integer' })
  reports: number;

  @ApiProperty({ type: 'integer', description: 'Default ceiling of each API key.' })
  requests_per_minute: number;
}

export class PlanDto {
  @ApiProperty({ type: 'string' })
  name: string;

  @ApiProperty({ type: () => PlanLimitsDto })
  limits: PlanLimitsDto;
}

export class UsageDto {
  @ApiProperty({ type: 'integer' })
  monitors: number;

  @ApiProperty({ type: 'integer' })
  checks_this_month: number;

  @ApiProperty({ type: 'integer' })
  release_checks_this_month: number;

  @ApiProperty({ type: 'integer' })
  alert_destinations: number;

  @ApiProperty({ type: 'integer' })
  status_pages: number;

  @ApiProperty({ type: 'integer' })
  reports: number;

  @ApiProperty({
    type: 'integer',
    description: 'Requests made today (UTC) in this workspace, with any key or session.',
  })
  api_requests_today: number;
}

export class CurrentWorkspaceDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string' })
  name: string;

  @ApiProperty({
    enum: WORKSPACE_ROLES,
    enumName: 'WorkspaceRole',
    nullable: true,
    description: "The person's role in it; null for an API key whose creator is no longer a member.",
  })
  role: WorkspaceRole | null;

  @ApiProperty({ type: () => PlanDto })
  plan: PlanDto;

  @ApiProperty({ type: () => ReviewPolicyDto })
  review_policy: ReviewPolicyDto;
}

/** Someone named in a resource: who issued a key, who opened a check. */
export class PersonDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string', format: 'email' })
  email: string;

  static from(user: User | null): PersonDto | null {
    return user ? { id: user.id, email: user.email } : null;
  }
}

export class CurrentUserDto extends UserDto {
  @ApiProperty({ type: () => CurrentWorkspaceDto, description: 'The workspace this request acted in.' })
  workspace: CurrentWorkspaceDto;

  @ApiProperty({
    type: () => PlanDto,
    deprecated: true,
    description: "The current workspace's plan; the same as `workspace.plan`.",
  })
  plan: PlanDto;

  @ApiProperty({ type: () => UsageDto })
  usage: UsageDto;
}
