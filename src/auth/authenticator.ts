import { createSecretKey } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Passport } from 'passport';
import { HeaderAPIKeyStrategy } from 'passport-headerapikey';
import { ExtractJwt, Strategy as JwtStrategy } from 'passport-jwt';
import { ApiKeysService } from '../api-keys/api-keys.service';
import type { Principal } from '../common/auth/principal';
import { Unauthenticated } from '../common/errors/domain-errors';
import { requestedWorkspaceId } from '../common/tenancy/acting-workspace';
import { AuthService, type SessionClaims } from './auth.service';
import { SESSION_SECRET } from './session-secret.provider';

type Done = (error: Error | null, principal?: Principal | false) => void;

function settle(work: Promise<Principal | null>, done: Done): void {
  work.then(
    (principal) => done(null, principal ?? false),
    (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
  );
}

/**
 * Turns a request's credentials into a Principal with passport strategies: `X-API-Key` (passport-headerapikey)
 * for integrations, `Authorization: Bearer` (passport-jwt) for sessions. It owns its Passport instance rather
 * than passport's process-wide one, so several app instances in one process never share strategies.
 */
@Injectable()
export class Authenticator {
  private readonly passport = new Passport();

  constructor(apiKeys: ApiKeysService, auth: AuthService, @Inject(SESSION_SECRET) sessionSecret: string) {
    this.passport.use(
      'api-key',
      new HeaderAPIKeyStrategy({ header: 'X-API-Key', prefix: '' }, false, (secret: string, done: Done) =>
        settle(apiKeys.authenticate(secret), done),
      ),
    );
    this.passport.use(
      'session',
      new JwtStrategy(
        {
          jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
          // A ready KeyObject: given a string, jsonwebtoken would build one (after trying it as a PEM) per request.
          secretOrKey: createSecretKey(Buffer.from(sessionSecret)) as unknown as string,
          algorithms: ['HS256'],
          passReqToCallback: true,
        },
        (request: Request, claims: SessionClaims, done: Done) =>
          settle(
            Promise.resolve().then(() => auth.sessionPrincipal(claims, requestedWorkspaceId(request))),
            done,
          ),
      ),
    );
  }

  /** The caller, or Unauthenticated. An X-API-Key header, when present, decides: no fallback to a session. */
  authenticate(request: Request, response: Response): Promise<Principal> {
    const strategy = request.headers['x-api-key'] !== undefined ? 'api-key' : 'session';
    return new Promise((resolve, reject) => {
      const handler = this.passport.authenticate(
        strategy,
        { session: false, failWithError: false },
        (error: Error | null, principal: Principal | false) => {
          if (error) reject(error);
          else if (principal) resolve(principal);
          else reject(new Unauthenticated());
        },
      ) as (request: Request, response: Response, next: (error?: unknown) => void) => void;
      handler(request, response, reject);
    });
  }
}
