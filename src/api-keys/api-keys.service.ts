import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ApiKeyPrincipal, WorkspacePrincipal } from '../common/auth/principal';
import type { Scope } from '../common/auth/scopes';
import { DomainError, InsufficientScope, NotFound, ValidationFailed } from '../common/errors/domain-errors';
import { type Page, type PageQuery, pageOf, pageWindow } from '../common/pagination/pagination';
import { acrossWorkspaces, workspaceUnitOfWork } from '../common/tenancy/workspace-scope';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { User } from '../users/user.entity';
import { Workspace } from '../workspaces/entities/workspace.entity';
import { generateSecret, hashSecret, looksLikeSecret } from './api-key-secret';
import { ApiKey } from './api-key.entity';
import { AdminApiKeyDto, ApiKeyDto, type ApiKeyWithSecretDto, type CreateApiKeyDto } from './dto/api-key.dto';

/** last_used_at is written at most this often per key, so authentication stays a read. */
const LAST_USED_RESOLUTION_MS = 60_000;

interface ApiKeyLookup {
  id: string;
  workspace_id: string;
  created_by_id: string | null;
  scopes: Scope[];
  expires_at: Date | string | null;
  rate_limit_per_minute: number | null;
  last_used_at: Date | string | null;
}

@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);

  constructor(
    private readonly em: EntityManager,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Issues a key. Called with an API key, the new key can hold only scopes the calling key holds and cannot outlive
   * it: a key is never a way to more access than it has.
   */
  async create(principal: WorkspacePrincipal, input: CreateApiKeyDto): Promise<ApiKeyWithSecretDto> {
    if (input.expires_at && input.expires_at.getTime() <= Date.now()) {
      throw ValidationFailed.field('expires_at', 'must be in the future');
    }
    if (principal.kind === 'api_key') {
      const beyond = input.scopes.find((scope) => !principal.scopes.includes(scope));
      if (beyond) {
        throw new InsufficientScope(
          beyond,
          `A key can only issue keys with scopes it holds itself; it lacks ${beyond}.`,
        );
      }
      if (principal.expiresAt && (!input.expires_at || input.expires_at > principal.expiresAt)) {
        throw ValidationFailed.field(
          'expires_at',
          `must be no later than the calling key's expiry, ${principal.expiresAt.toISOString()}`,
        );
      }
    }
    const { secret, prefix, hash } = generateSecret();
    const key = this.em.create(ApiKey, {
      workspace: this.em.getReference(Workspace, principal.workspace.id),
      createdBy: principal.userId ? this.em.getReference(User, principal.userId) : null,
      name: input.name,
      prefix,
      secretHash: hash,
      scopes: [...input.scopes],
      expiresAt: input.expires_at ?? null,
    });
    await this.em.persist(key).flush();
    await this.em.populate(key, ['createdBy']);
    return { ...this.toDto(key), secret };
  }

  /** The workspace's keys for its admins; the keys they issued themselves for everyone else. */
  async list(principal: WorkspacePrincipal, query: PageQuery): Promise<Page<ApiKeyDto>> {
    const [keys, total] = await this.em.findAndCount(ApiKey, this.manageable(principal), {
      populate: ['createdBy'],
      orderBy: { createdAt: 'desc', id: 'desc' },
      ...pageWindow(query),
    });
    return pageOf(
      keys.map((key) => this.toDto(key)),
      total,
      query,
    );
  }

  /** Revoking is immediate: every instance looks the key up on every request. Revoking twice is harmless. */
  async revoke(principal: WorkspacePrincipal, keyId: string): Promise<ApiKeyDto> {
    const key = await this.em.findOne(
      ApiKey,
      { id: keyId, ...this.manageable(principal) },
      { populate: ['createdBy'] },
    );
    if (!key) throw new NotFound('API key');
    if (!key.revokedAt) {
      key.revokedAt = new Date();
      await this.em.flush();
    }
    return this.toDto(key);
  }

  /**
   * Replaces a key with a new secret (same name, scopes, expiry and ceiling) and revokes the old one, in one
   * transaction holding the old key's row lock, so two concurrent regenerations cannot both succeed.
   */
  async regenerate(principal: WorkspacePrincipal, keyId?: string): Promise<ApiKeyWithSecretDto> {
    const targetId = keyId ?? (principal.kind === 'api_key' ? principal.keyId : undefined);
    if (!targetId) throw ValidationFailed.field('key_id', 'is required when signed in with a session');
    // A key may rotate itself; rotating another key would hand over that key's secret and scopes.
    if (principal.kind === 'api_key' && targetId !== principal.keyId) throw new NotFound('API key');
    return this.em.transactional(async (em) => {
      const old = await em.findOne(
        ApiKey,
        { id: targetId, ...(principal.kind === 'session' ? this.manageable(principal) : {}) },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      if (!old) throw new NotFound('API key');
      if (old.revokedAt) throw new DomainError('key_revoked', 'This key is revoked; issue a new key instead.');
      if (old.expiresAt && old.expiresAt.getTime() <= Date.now()) {
        throw new DomainError('key_expired', 'This key has expired; issue a new key instead.');
      }
      old.revokedAt = new Date();
      const { secret, prefix, hash } = generateSecret();
      const replacement = em.create(ApiKey, {
        workspace: old.workspace,
        createdBy: old.createdBy,
        name: old.name,
        prefix,
        secretHash: hash,
        scopes: old.scopes,
        expiresAt: old.expiresAt,
        rateLimitPerMinute: old.rateLimitPerMinute,
      });
      em.persist(replacement);
      await em.populate(replacement, ['createdBy']);
      return { ...this.toDto(replacement), secret };
    });
  }

  /**
   * The caller behind a secret, or null when the key is unknown, malformed, revoked or expired. This runs on every
   * API request, so it is one indexed query returning plain values, with no entity hydration.
   */
  async authenticate(secret: string): Promise<ApiKeyPrincipal | null> {
    if (!looksLikeSecret(secret)) return null;
    const [key] = await this.em.execute<ApiKeyLookup[]>(
      `select id, workspace_id, created_by_id, scopes, expires_at, rate_limit_per_minute, last_used_at from api_keys
        where secret_hash = ? and revoked_at is null and (expires_at is null or expires_at > now())`,
      [hashSecret(secret)],
    );
    if (!key) return null;
    const now = Date.now();
    if (!key.last_used_at || now - new Date(key.last_used_at).getTime() >= LAST_USED_RESOLUTION_MS) {
      this.recordUse(key.id, key.workspace_id, new Date(now));
    }
    return {
      kind: 'api_key',
      keyId: key.id,
      userId: key.created_by_id,
      workspace: { id: key.workspace_id, role: null },
      scopes: key.scopes,
      expiresAt: key.expires_at ? new Date(key.expires_at) : null,
      rateLimitPerMinute: key.rate_limit_per_minute ?? this.config.rateLimitPerMinute,
    };
  }

  /** Every key of every workspace, for the instance's administrators. */
  async listAll(query: PageQuery): Promise<Page<AdminApiKeyDto>> {
    const [keys, total] = await acrossWorkspaces(this.em).findAndCount(
      ApiKey,
      {},
      { populate: ['createdBy'], orderBy: { createdAt: 'desc', id: 'desc' }, ...pageWindow(query) },
    );
    return pageOf(
      keys.map((key) => this.toAdminDto(key)),
      total,
      query,
    );
  }

  /** Sets a key's ceiling; the next request with the key is counted against it, on every instance. */
  async setRateLimit(keyId: string, requestsPerMinute: number): Promise<AdminApiKeyDto> {
    const em = acrossWorkspaces(this.em);
    const key = await em.findOne(ApiKey, { id: keyId }, { populate: ['createdBy'] });
    if (!key) throw new NotFound('API key');
    key.rateLimitPerMinute = requestsPerMinute;
    await em.flush();
    return this.toAdminDto(key);
  }

  /** Which of the workspace's keys the caller may list, revoke and rotate: all for its admins, else their own. */
  private manageable(principal: WorkspacePrincipal): { createdBy?: string } | { id: string } {
    if (principal.workspace.role === 'admin') return {};
    if (principal.userId) return { createdBy: principal.userId };
    // A key whose creator was deleted manages only itself.
    return { id: principal.kind === 'api_key' ? principal.keyId : '' };
  }

  private recordUse(keyId: string, workspaceId: string, at: Date): void {
    // A separate unit of work (this write must not wait for, or ride along with, the request's own flush), in the
    // key's workspace: seeing every workspace is not what it needs.
    workspaceUnitOfWork(this.em, workspaceId)
      .nativeUpdate(
        ApiKey,
        {
          id: keyId,
          $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: new Date(at.getTime() - LAST_USED_RESOLUTION_MS) } }],
        },
        { lastUsedAt: at },
      )
      .catch((error: unknown) => this.logger.warn({ err: error }, 'could not record key use'));
  }

  private toDto(key: ApiKey): ApiKeyDto {
    return ApiKeyDto.from(key, this.config.rateLimitPerMinute);
  }

  private toAdminDto(key: ApiKey): AdminApiKeyDto {
    return {
      ...this.toDto(key),
      user_id: key.createdBy?.id ?? null,
      user_email: key.createdBy?.email ?? null,
      workspace_id: key.workspace.id,
    };
  }
}
