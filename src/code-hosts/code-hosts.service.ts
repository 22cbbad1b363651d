import { createPrivateKey, randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import {
  AlertDestination,
  CODE_HOST_CONNECTIONS,
  CODE_HOST_PROVIDERS,
  type CodeHostProvider,
  type DestinationConfig,
} from '../alerts/entities/alert-destination.entity';
import type { WorkspacePrincipal } from '../common/auth/principal';
import { DomainError, NotFound, ValidationFailed } from '../common/errors/domain-errors';
import { type Page, type PageQuery, pageOf, pageWindow } from '../common/pagination/pagination';
import { CredentialBox } from '../common/secrets/credential-box';
import { assertPublicTarget } from '../common/targets/public-target';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Workspace } from '../workspaces/entities/workspace.entity';
import { GITLAB_COM, CodeHostSender } from './code-host-sender';
import type {
  CodeHostConnectionDto,
  CodeHostConnectionTestResultDto,
  CreateCodeHostConnectionDto,
  UpdateCodeHostConnectionDto,
} from './dto/code-host-connection.dto';

type Connection = AlertDestination & { type: CodeHostProvider };

/** The fields each provider takes; naming another provider's is a 400. */
const FIELDS: Record<CodeHostProvider, readonly (keyof CreateCodeHostConnectionDto)[]> = {
  github: ['app_id', 'installation_id', 'private_key'],
  gitlab: ['token', 'base_url'],
};
const REQUIRED: Record<CodeHostProvider, readonly (keyof CreateCodeHostConnectionDto)[]> = {
  github: ['app_id', 'installation_id', 'private_key'],
  gitlab: ['token'],
};

/** A workspace's code-host connections: GitHub App installations and GitLab tokens, credentials sealed. */
@Injectable()
export class CodeHostsService {
  constructor(
    private readonly em: EntityManager,
    private readonly credentials: CredentialBox,
    private readonly sender: CodeHostSender,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(query: PageQuery): Promise<Page<CodeHostConnectionDto>> {
    const [connections, total] = await this.em.findAndCount(AlertDestination, CODE_HOST_CONNECTIONS, {
      orderBy: { createdAt: 'asc', id: 'asc' },
      ...pageWindow(query),
    });
    return pageOf((connections as Connection[]).map(present), total, query);
  }

  async create(principal: WorkspacePrincipal, input: CreateCodeHostConnectionDto): Promise<CodeHostConnectionDto> {
    assertFieldsOf(input.provider, input);
    const missing = REQUIRED[input.provider].find((field) => input[field] === undefined);
    if (missing) throw ValidationFailed.field(missing, `is required for a ${input.provider} connection`);
    const id = randomUUID();
    const connection = this.em.create(AlertDestination, {
      id,
      workspace: this.em.getReference(Workspace, principal.workspace.id),
      name: input.name,
      type: input.provider,
      config: await this.configOf(input.provider, input, {}),
      enabled: input.enabled ?? true,
      credential: this.sealed(input.provider, input, id),
    }) as Connection;
    await this.flushUnique(connection.config);
    return present(connection);
  }

  async get(id: string): Promise<CodeHostConnectionDto> {
    return present(await this.owned(id));
  }

  async update(id: string, input: UpdateCodeHostConnectionDto): Promise<CodeHostConnectionDto> {
    const connection = await this.owned(id);
    assertFieldsOf(connection.type, input);
    if (input.name !== undefined) connection.name = input.name;
    connection.config = await this.configOf(connection.type, input, connection.config);
    const credential = this.sealed(connection.type, input, connection.id);
    if (credential) connection.credential = credential;
    if (input.enabled !== undefined) {
      connection.enabled = input.enabled;
      if (input.enabled) connection.disabledReason = null;
    }
    // A new credential must reach the sender's cache of clients (kept per `updatedAt`) even if nothing else changed.
    connection.updatedAt = new Date();
    await this.flushUnique(connection.config);
    return present(connection);
  }

  async delete(id: string): Promise<void> {
    if (!(await this.em.nativeDelete(AlertDestination, { id, ...CODE_HOST_CONNECTIONS }))) {
      throw new NotFound('Code-host connection');
    }
  }

  /** Asks the code host whether the credential works; nothing is written there. */
  async test(id: string): Promise<CodeHostConnectionTestResultDto> {
    return this.sender.check(await this.owned(id));
  }

  private async owned(id: string): Promise<Connection> {
    const connection = await this.em.findOne(AlertDestination, { id, ...CODE_HOST_CONNECTIONS });
    if (!connection) throw new NotFound('Code-host connection');
    return connection as Connection;
  }

  /** The stored config: the provider's identifiers and namespace; GitLab's address must be public. */
  private async configOf(
    provider: CodeHostProvider,
    input: UpdateCodeHostConnectionDto,
    current: DestinationConfig,
  ): Promise<DestinationConfig> {
    const namespace = input.namespace ?? current.namespace;
    if (provider === 'github') {
      return {
        namespace,
        app_id: input.app_id ?? current.app_id,
        installation_id: input.installation_id ?? current.installation_id,
      };
    }
    if (input.base_url !== undefined) {
      await assertPublicTarget(input.base_url, 'base_url', this.config.allowPrivateTargets);
      // The token travels to this address: never in clear, and never to a new address without being given again
      // (else anyone who may edit the connection could send the stored token to a server of theirs).
      if (!this.config.allowPrivateTargets && !input.base_url.startsWith('https://')) {
        throw ValidationFailed.field('base_url', 'must be an https address: the token is sent to it');
      }
      const moved = current.base_url !== undefined && gitLabBase(input.base_url) !== current.base_url;
      if (moved && input.token === undefined) {
        throw ValidationFailed.field('token', 'is required with a new base_url: give the token for that GitLab again');
      }
    }
    const baseUrl = input.base_url === undefined ? (current.base_url ?? GITLAB_COM) : gitLabBase(input.base_url);
    return { namespace, base_url: baseUrl };
  }

  /** The new credential sealed for this row, or null when the input brings none. */
  private sealed(provider: CodeHostProvider, input: UpdateCodeHostConnectionDto, id: string): string | null {
    if (provider === 'github' && input.private_key !== undefined) {
      try {
        createPrivateKey(input.private_key);
      } catch {
        throw ValidationFailed.field('private_key', 'must be a PEM private key, as GitHub downloads it');
      }
      return this.credentials.seal(input.private_key, id);
    }
    if (provider === 'gitlab' && input.token !== undefined) return this.credentials.seal(input.token, id);
    return null;
  }

  private async flushUnique(config: DestinationConfig): Promise<void> {
    try {
      await this.em.flush();
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      throw new DomainError(
        'conflict',
        `This workspace already has a connection for ${config.namespace} on this code host; change that one instead.`,
      );
    }
  }
}

function assertFieldsOf(provider: CodeHostProvider, input: UpdateCodeHostConnectionDto): void {
  const other = CODE_HOST_PROVIDERS.find((candidate) => candidate !== provider)!;
  const foreign = FIELDS[other].find((field) => input[field as keyof UpdateCodeHostConnectionDto] !== undefined);
  if (foreign) throw ValidationFailed.field(foreign, `is not used by a ${provider} connection`);
}

/** GitLab's address without a trailing slash or `/api/v4` (the clients add it). */
function gitLabBase(url: string): string {
  return url.replace(/\/+$/, '').replace(/\/api\/v4$/, '');
}

export function present(connection: Connection): CodeHostConnectionDto {
  const { config } = connection;
  return {
    id: connection.id,
    name: connection.name,
    provider: connection.type,
    namespace: config.namespace ?? '',
    app_id: config.app_id ?? null,
    installation_id: config.installation_id ?? null,
    base_url: connection.type === 'gitlab' ? (config.base_url ?? GITLAB_COM) : null,
    enabled: connection.enabled,
    disabled_reason: connection.disabledReason,
    created_at: connection.createdAt.toISOString(),
    updated_at: connection.updatedAt.toISOString(),
  };
}
