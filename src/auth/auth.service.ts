import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { SessionPrincipal } from '../common/auth/principal';
import { RateLimited, Unauthenticated } from '../common/errors/domain-errors';
import { RateLimitService } from '../common/rate-limit/rate-limit.service';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { PasswordHasher } from '../users/password-hasher';
import { UsersService } from '../users/users.service';
import type { LoginResponseDto } from './dto/login.dto';

export interface SessionClaims {
  sub: string;
}

@Injectable()
export class AuthService {
  /** Verified against when the email is unknown, so a wrong email takes as long as a wrong password. */
  private readonly decoyHash: Promise<string>;

  constructor(
    private readonly users: UsersService,
    private readonly passwords: PasswordHasher,
    private readonly jwt: JwtService,
    private readonly rateLimits: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.decoyHash = passwords.hash('not a password of anyone');
  }

  async login(email: string, password: string, clientAddress: string): Promise<LoginResponseDto> {
    // Enough attempts for people, too few for guessing passwords.
    const bucket = await this.rateLimits.consume(`sign-in:${clientAddress}`, this.config.signInRateLimitPerMinute);
    if (!bucket.allowed) throw new RateLimited(bucket.resetSeconds);
    const user = await this.users.findForSignIn(email);
    const matches = await this.passwords.verify(user?.passwordHash ?? (await this.decoyHash), password);
    if (!user || !matches) throw new Unauthenticated('The email or password is wrong.');
    const claims: SessionClaims = { sub: user.id };
    return {
      access_token: await this.jwt.signAsync(claims),
      token_type: 'Bearer',
      expires_in: this.config.jwtTtlSeconds,
    };
  }

  /**
   * The signed-in person behind verified claims, with the workspace they act in (the requested one if they are a
   * member of it, else their first); null if the person no longer exists.
   */
  async sessionPrincipal(claims: SessionClaims, requestedWorkspaceId: string | null): Promise<SessionPrincipal | null> {
    if (typeof claims.sub !== 'string') return null;
    const person = await this.users.withMembership(claims.sub, requestedWorkspaceId);
    if (!person) return null;
    return {
      kind: 'session',
      userId: person.id,
      role: person.role,
      workspace: person.workspace,
      rateLimitPerMinute: this.config.rateLimitPerMinute,
    };
  }
}
