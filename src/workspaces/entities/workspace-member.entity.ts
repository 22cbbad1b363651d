import type { Opt } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { WORKSPACE_ROLES, type WorkspaceRole } from '../../common/auth/scopes';
import { User } from '../../users/user.entity';
import { Workspace } from './workspace.entity';

/** A person's membership of a workspace, with their role in it. */
@Entity({ tableName: 'workspace_members' })
// A person's workspaces, oldest first: the first is their default.
@Index({ properties: ['user', 'createdAt'] })
export class WorkspaceMember {
  @ManyToOne(() => Workspace, { primary: true, deleteRule: 'cascade' })
  workspace: Workspace;

  @ManyToOne(() => User, { primary: true, deleteRule: 'cascade' })
  user: User;

  @Enum({ items: () => WORKSPACE_ROLES, type: 'text' })
  role: WorkspaceRole;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
