import { randomBytes } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { hash } from 'argon2';
import type { UserRole } from '../common/auth/scopes';
import { DomainError, NotFound } from '../common/errors/domain-errors';
import { type Page, type PageQuery, pageOf, pageWindow } from '../common/pagination/pagination';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { UsageService } from '../usage/usage.service';
import { CurrentUserDto, UserDto } from './dto/user.dto';
import { planLimits } from './plans';
import { User } from './user.entity';

export const GENERATED_ADMIN_EMAIL = 'admin@vigil.local';

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

@Injectable()
export class UsersService implements OnApplicationBootstrap {
  private readonly logger = new Logger(UsersService.name);

  constructor(
    private readonly em: EntityManager,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly usage: UsageService,
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
      await this.create({ email, password, role: 'admin' }, em);
      return true;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'email_taken') return false;
      throw error;
    }
  }

  async create(input: { email: string; password: string; role: UserRole }, em = this.em): Promise<UserDto> {
    const user = em.create(User, {
      email: normalizeEmail(input.email),
      passwordHash: await hash(input.password),
      role: input.role,
    });
    try {
      await em.persist(user).flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) {
        throw new DomainError('email_taken', `A user with the email ${user.email} exists already.`);
      }
      throw error;
    }
    return UserDto.from(user);
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

  async currentUser(userId: string): Promise<CurrentUserDto> {
    const user = await this.findById(userId);
    if (!user) throw new NotFound('User');
    return {
      ...UserDto.from(user),
      plan: {
        name: user.plan,
        limits: { ...planLimits(user.plan), requests_per_minute: this.config.rateLimitPerMinute },
      },
      usage: {
        monitors: await this.usage.monitors(user.id),
        checks_this_month: await this.usage.checksThisMonth(user.id),
        release_checks_this_month: await this.usage.releaseChecksThisMonth(user.id),
        api_requests_today: await this.usage.requestsToday(user.id),
      },
    };
  }
}
