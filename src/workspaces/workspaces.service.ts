import { randomBytes } from 'node:crypto';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import type { SessionPrincipal } from '../common/auth/principal';
import type { WorkspaceRole } from '../common/auth/scopes';
import { DomainError, InsufficientScope, NotFound } from '../common/errors/domain-errors';
import { type Page, type PageQuery, pageOf, pageWindow } from '../common/pagination/pagination';
import { UsersService } from '../users/users.service';
import {
  type AddedWorkspaceMemberDto,
  type AddWorkspaceMemberDto,
  type UpdateWorkspaceDto,
  WorkspaceDto,
  WorkspaceMemberDto,
} from './dto/workspace.dto';
import { WorkspaceMember } from './entities/workspace-member.entity';
import { Workspace } from './entities/workspace.entity';

/**
 * Workspaces and their members. Every rule takes the caller's membership of the workspace the path names: none is a
 * 404 (a workspace is never confirmed to an outsider), the wrong role a 403.
 */
@Injectable()
export class WorkspacesService {
  constructor(
    private readonly em: EntityManager,
    private readonly users: UsersService,
  ) {}

  async list(userId: string, query: PageQuery): Promise<Page<WorkspaceDto>> {
    const [memberships, total] = await this.em.findAndCount(
      WorkspaceMember,
      { user: userId },
      { populate: ['workspace'], orderBy: { createdAt: 'asc', workspace: 'asc' }, ...pageWindow(query) },
    );
    return pageOf(
      memberships.map((membership) => WorkspaceDto.from(membership.workspace, membership.role)),
      total,
      query,
    );
  }

  async create(userId: string, name: string): Promise<WorkspaceDto> {
    const workspace = this.em.create(Workspace, { name });
    this.em.create(WorkspaceMember, { workspace, user: userId, role: 'admin' });
    await this.em.flush();
    return WorkspaceDto.from(workspace, 'admin');
  }

  async get(userId: string, workspaceId: string): Promise<WorkspaceDto> {
    const membership = await this.membership(this.em, workspaceId, userId);
    return WorkspaceDto.from(membership.workspace, membership.role);
  }

  async update(userId: string, workspaceId: string, changes: UpdateWorkspaceDto): Promise<WorkspaceDto> {
    const membership = await this.membership(this.em, workspaceId, userId, 'admin');
    const workspace = membership.workspace;
    if (changes.name !== undefined) workspace.name = changes.name;
    if (changes.review_policy !== undefined) {
      workspace.reviewPolicy = { require_distinct_reviewer: changes.review_policy.require_distinct_reviewer };
    }
    await this.em.flush();
    return WorkspaceDto.from(workspace, membership.role);
  }

  async members(userId: string, workspaceId: string, query: PageQuery): Promise<Page<WorkspaceMemberDto>> {
    await this.membership(this.em, workspaceId, userId);
    const [members, total] = await this.em.findAndCount(
      WorkspaceMember,
      { workspace: workspaceId },
      { populate: ['user'], orderBy: { createdAt: 'asc', user: 'asc' }, ...pageWindow(query) },
    );
    return pageOf(
      members.map((member) => WorkspaceMemberDto.from(member)),
      total,
      query,
    );
  }

  /**
   * Adds a registered person. An unknown e-mail is a 404, except for an administrator of the instance, who creates
   * the person here with a one-time password (returned once; they sign in with it).
   */
  async addMember(
    caller: SessionPrincipal,
    workspaceId: string,
    input: AddWorkspaceMemberDto,
  ): Promise<AddedWorkspaceMemberDto> {
    const { workspace } = await this.membership(this.em, workspaceId, caller.userId, 'admin');
    let person = await this.users.findByEmail(input.email);
    let temporaryPassword: string | null = null;
    if (!person) {
      if (caller.role !== 'admin') {
        throw new NotFound(
          'Person',
          `No one is registered with ${input.email}. An administrator of this Vigil can add them.`,
        );
      }
      temporaryPassword = randomBytes(15).toString('base64url');
      person = await this.users.create({
        email: input.email,
        password: temporaryPassword,
        role: 'member',
        personalWorkspace: false,
      });
    }
    if (await this.em.count(WorkspaceMember, { workspace, user: person })) throw alreadyMember(person.email);
    const member = this.em.create(WorkspaceMember, { workspace, user: person, role: input.role });
    try {
      await this.em.flush();
    } catch (error) {
      // Added by another request at the same moment.
      if (error instanceof UniqueConstraintViolationException) throw alreadyMember(person.email);
      throw error;
    }
    return { ...WorkspaceMemberDto.from(member), temporary_password: temporaryPassword };
  }

  async updateMember(
    callerId: string,
    workspaceId: string,
    userId: string,
    role: WorkspaceRole,
  ): Promise<WorkspaceMemberDto> {
    return this.em.transactional(async (em) => {
      await this.membership(em, workspaceId, callerId, 'admin', LockMode.PESSIMISTIC_WRITE);
      const member = await this.member(em, workspaceId, userId);
      if (member.role === 'admin' && role !== 'admin') await this.assertAnotherAdmin(em, workspaceId);
      member.role = role;
      return WorkspaceMemberDto.from(member);
    });
  }

  /** An admin removes anyone; anyone may leave. The workspace row's lock serialises changes of its admins. */
  async removeMember(callerId: string, workspaceId: string, userId: string): Promise<void> {
    await this.em.transactional(async (em) => {
      const leaving = callerId === userId;
      await this.membership(em, workspaceId, callerId, leaving ? undefined : 'admin', LockMode.PESSIMISTIC_WRITE);
      const member = await this.member(em, workspaceId, userId);
      if (member.role === 'admin') await this.assertAnotherAdmin(em, workspaceId);
      em.remove(member);
    });
  }

  /**
   * The caller's membership of the workspace (with the workspace loaded, locked when asked): a 404 when there is
   * none, a 403 when a role is required and theirs is another.
   */
  private async membership(
    em: EntityManager,
    workspaceId: string,
    userId: string,
    required?: 'admin',
    lockMode?: LockMode.PESSIMISTIC_WRITE,
  ): Promise<WorkspaceMember> {
    const workspace = await em.findOne(Workspace, { id: workspaceId }, lockMode ? { lockMode } : {});
    const membership = workspace && (await em.findOne(WorkspaceMember, { workspace, user: userId }));
    if (!membership) throw new NotFound('Workspace');
    if (required && membership.role !== required) {
      throw new InsufficientScope('workspace:admin', 'Only an admin of this workspace can do this.');
    }
    return membership;
  }

  private async member(em: EntityManager, workspaceId: string, userId: string): Promise<WorkspaceMember> {
    const member = await em.findOne(WorkspaceMember, { workspace: workspaceId, user: userId }, { populate: ['user'] });
    if (!member) throw new NotFound('Member');
    return member;
  }

  private async assertAnotherAdmin(em: EntityManager, workspaceId: string): Promise<void> {
    const admins = await em.count(WorkspaceMember, { workspace: workspaceId, role: 'admin' });
    if (admins <= 1) {
      throw new DomainError(
        'last_admin',
        'A workspace needs an admin: make someone else an admin before this one leaves or steps down.',
      );
    }
  }
}

function alreadyMember(email: string): DomainError {
  return new DomainError('already_member', `${email} is a member of this workspace already.`);
}
