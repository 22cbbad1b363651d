import { randomBytes } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { WorkspacePrincipal, WorkspaceAccess } from '../common/auth/principal';
import type { UserRole, WorkspaceRole } from '../common/auth/scopes';
import { DomainError, NotFound } from '../common/errors/domain-errors';
import { type Page, type PageQuery, pageOf, pageWindow } from '../common/pagination/pagination';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { UsageService } from '../usage/usage.service';
import { WorkspaceMember } from '../workspaces/entities/workspace-member.entity';
import { Workspace } from '../workspaces/entities/workspace.entity';
import { CurrentUserDto, UserDto } from './dto/user.dto';
import { planLimits } from './plans';
import { User } from './user.entity';
import { PasswordHasher } from './password-hasher';

export const GENERATED_ADMIN_EMAIL = 'admin@vigil.local';

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A person as a session sees them: their instance role and the workspace they act in. */
export interface PersonWithMembership {
  id: string;
  role: UserRole;
  workspace: WorkspaceAccess | null;
}

export interface NewPerson {
  email: string;
  password: string;
  role: UserRole;
  /** A workspace of their own, with them as its admin (people an admin adds); not for people added to a team. */
  personalWorkspace: boolean;
}

@Injectable()
export class UsersService implements OnApplicationBootstrap {
  private readonly logger = new Logger(UsersService.name);
  /** The administrator this start created with a generated password, if it did: whom the start line names. */
  generatedAdministrator: string | null = null;

  constructor(
    private readonly em: EntityManager,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly usage: UsageService,
    private readonly passwords: PasswordHasher,
  ) {}

  /**
   * First start: creates the administrator named by ADMIN_EMAIL / ADMIN_PASSWORD if missing. Without them, an
   * empty service gets `admin@vigil.local` with a random password, printed once, so a person can sign in.
   */
  async onApplicationBootstrap(): Promise<void> {
    const em = this.em.fork();
    const { adminEmail, adminPassword } = this.config;
    if (adminEmail && adminPassword) {
      if (await em.count(User, { email: normalizeEmail(adminEmail) })) return;
      if (await this.createAdmin(adminEmail, adminPassword, em)) this.logger.log(`created administrator ${adminEmail}`);
      return;
    }
    if (await em.count(User, {})) return;
    const password = randomBytes(15).toString('base64url');
    if (await this.createAdmin(GENERATED_ADMIN_EMAIL, password, em)) {
      this.generatedAdministrator = GENERATED_ADMIN_EMAIL;
      this.logger.warn(`first start: created administrator ${GENERATED_ADMIN_EMAIL}; its password is on stderr, once`);
      // To the terminal, not the JSON log stream that log shippers keep.
      process.stderr.write(
        `vigil: first start: sign in as ${GENERATED_ADMIN_EMAIL} with password ${password} (shown once; ` +
          'add people after signing in, or set ADMIN_EMAIL and ADMIN_PASSWORD)\n',
      );
    }
  }

  /** False when another instance starting at the same moment created the user first. */
  private async createAdmin(email: string, password: string, em: EntityManager): Promise<boolean> {
    try {
      await this.create({ email, password, role: 'admin', personalWorkspace: true }, em);
      return true;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'email_taken') return false;
      throw error;
    }
  }

  /** Creates a person (and their personal workspace, if asked) in the given unit of work, flushed at once. */
  async create(input: NewPerson, em = this.em): Promise<User> {
    const user = em.create(User, {
      email: normalizeEmail(input.email),
      passwordHash: await this.passwords.hash(input.password),
      role: input.role,
    });
    if (input.personalWorkspace) {
      const workspace = em.create(Workspace, { name: user.email });
      em.create(WorkspaceMember, { workspace, user, role: 'admin' });
    }
    try {
      await em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) {
        throw new DomainError('email_taken', `A user with the email ${user.email} exists already.`);
      }
      throw error;
    }
    return user;
  }

  /** An administrator adds a person, who gets a workspace of their own. */
  async addPerson(input: Omit<NewPerson, 'personalWorkspace'>): Promise<UserDto> {
    return UserDto.from(await this.create({ ...input, personalWorkspace: true }));
  }

  async list(query: PageQuery): Promise<Page<UserDto>> {
    const [users, total] = await this.em.findAndCount(
      User,
      {},
      { orderBy: { createdAt: 'asc', id: 'asc' }, ...pageWindow(query) },
    );
    return pageOf(
      users.map((user) => UserDto.from(user)),
      total,
      query,
    );
  }

  /** The user with the password hash loaded, for sign-in. */
  findForSignIn(email: string): Promise<User | null> {
    return this.em.findOne(User, { email: normalizeEmail(email) }, { populate: ['passwordHash'] });
  }

  findById(id: string): Promise<User | null> {
    return this.em.findOne(User, { id });
  }

  findByEmail(email: string): Promise<User | null> {
    return this.em.findOne(User, { email: normalizeEmail(email) });
  }

  /**
   * The person with the workspace they act in: the requested one if they are a member of it, else (none requested)
   * their first. One indexed query, run on every session request.
   */
  async withMembership(userId: string, requestedWorkspaceId: string | null): Promise<PersonWithMembership | null> {
    const [row] = await this.em.execute<
      { id: string; role: UserRole; workspace_id: string | null; workspace_role: WorkspaceRole | null }[]
    >(
      `select u.id, u.role, m.workspace_id, m.role as workspace_role from users u
        left join lateral (
          select workspace_id, role from workspace_members
           where user_id = u.id and (?::uuid is null or workspace_id = ?::uuid)
           order by created_at, workspace_id limit 1
        ) m on true
        where u.id = ?`,
      [requestedWorkspaceId, requestedWorkspaceId, userId],
    );
    if (!row) return null;
    return {
      id: row.id,
      role: row.role,
      workspace: row.workspace_id ? { id: row.workspace_id, role: row.workspace_role } : null,
    };
  }

  /** The person (a key's creator, for a key), the workspace the request acts in, its plan and its usage. */
  async currentUser(principal: WorkspacePrincipal): Promise<CurrentUserDto> {
    const { userId, workspace: acting } = principal;
    // Independent reads, sent together: this handler is what a CI job calls to check its key.
    const [user, workspace, membership, usage] = await Promise.all([
      userId ? this.findById(userId) : null,
      this.em.findOneOrFail(Workspace, { id: acting.id }),
      acting.role || !userId ? null : this.em.findOne(WorkspaceMember, { workspace: acting.id, user: userId }),
      this.usage.ofWorkspace(acting.id),
    ]);
    if (!user) throw new NotFound('User', "This key's creator no longer exists; the key still works in its workspace.");
    const role = acting.role ?? membership?.role ?? null;
    const plan = {
      name: workspace.plan,
      limits: { ...planLimits(this.config.plans, workspace.plan), requests_per_minute: this.config.rateLimitPerMinute },
    };
    return {
      ...UserDto.from(user),
      workspace: { id: workspace.id, name: workspace.name, role, plan, review_policy: workspace.reviewPolicy },
      plan,
      usage,
    };
  }
}
