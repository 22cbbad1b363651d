import { ApiProperty } from '@nestjs/swagger';
import { WORKSPACE_ROLES, type WorkspaceRole } from '../../common/auth/scopes';
import { PageOf } from '../../common/pagination/pagination';
import { BooleanField, EmailField, EnumField, NestedField, TextField, UuidField } from '../../common/validation/fields';
import type { WorkspaceMember } from '../entities/workspace-member.entity';
import type { Workspace } from '../entities/workspace.entity';

export class ReviewPolicyDto {
  @ApiProperty({
    type: 'boolean',
    description:
      'When true, the person who opened a release check (the creator of the key that opened it, or the person ' +
      'whose session did) cannot approve it (`409 reviewer_not_distinct`).',
  })
  require_distinct_reviewer: boolean;
}

export class ReviewPolicyInputDto {
  @BooleanField()
  require_distinct_reviewer: boolean;
}

export class WorkspaceDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string' })
  name: string;

  @ApiProperty({ enum: WORKSPACE_ROLES, enumName: 'WorkspaceRole' })
  role: WorkspaceRole;

  @ApiProperty({ type: 'string', description: "The workspace's plan, such as `free`." })
  plan: string;

  @ApiProperty({ type: () => ReviewPolicyDto })
  review_policy: ReviewPolicyDto;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at: string;

  static from(workspace: Workspace, role: WorkspaceRole): WorkspaceDto {
    return {
      id: workspace.id,
      name: workspace.name,
      role,
      plan: workspace.plan,
      review_policy: workspace.reviewPolicy,
      created_at: workspace.createdAt.toISOString(),
    };
  }
}

export const WorkspaceListDto = PageOf(WorkspaceDto, 'WorkspaceList');

export class CreateWorkspaceDto {
  @TextField({ maxLength: 100 })
  name: string;
}

export class UpdateWorkspaceDto {
  @TextField({ maxLength: 100, optional: true })
  name?: string;

  @NestedField(() => ReviewPolicyInputDto, { optional: true })
  review_policy?: ReviewPolicyInputDto;
}

export class WorkspaceMemberDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  user_id: string;

  @ApiProperty({ type: 'string', format: 'email' })
  email: string;

  @ApiProperty({ enum: WORKSPACE_ROLES, enumName: 'WorkspaceRole' })
  role: WorkspaceRole;

  @ApiProperty({ type: 'string', format: 'date-time' })
  added_at: string;

  static from(member: WorkspaceMember): WorkspaceMemberDto {
    return {
      user_id: member.user.id,
      email: member.user.email,
      role: member.role,
      added_at: member.createdAt.toISOString(),
    };
  }
}

export class AddedWorkspaceMemberDto extends WorkspaceMemberDto {
  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'Set only when this call created the person (an instance administrator adding an unknown e-mail): their ' +
      'one-time password, shown this once. Otherwise null.',
  })
  temporary_password: string | null;
}

export const WorkspaceMemberListDto = PageOf(WorkspaceMemberDto, 'WorkspaceMemberList');

export class AddWorkspaceMemberDto {
  @EmailField()
  email: string;

  @EnumField(WORKSPACE_ROLES, 'WorkspaceRole')
  role: WorkspaceRole;
}

export class UpdateWorkspaceMemberDto {
  @EnumField(WORKSPACE_ROLES, 'WorkspaceRole')
  role: WorkspaceRole;
}

/** Path parameters `{id}/members/{user_id}`. */
export class MemberParams {
  @UuidField({ description: "The resource's identifier." })
  id: string;

  @UuidField({ description: "The person's identifier." })
  user_id: string;
}
