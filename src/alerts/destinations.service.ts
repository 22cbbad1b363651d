import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import type { WorkspacePrincipal } from '../common/auth/principal';
import { DomainError, NotFound, ValidationFailed } from '../common/errors/domain-errors';
import { type Page, type PageQuery, pageOf, pageWindow } from '../common/pagination/pagination';
import { assertPublicTarget } from '../common/targets/public-target';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Workspace } from '../workspaces/entities/workspace.entity';
import { DeliverySender, newSigningSecret } from './delivery-sender';
import { PlanGate } from '../users/plan-gate';
import type {
  AlertDestinationDto,
  AlertDestinationWithSecretDto,
  CreateAlertDestinationDto,
  DestinationConfigInputDto,
  DestinationTestResultDto,
  UpdateAlertDestinationDto,
} from './dto/alerts.dto';
import {
  ALERT_DESTINATIONS,
  AlertDestination,
  type DestinationConfig,
  type DestinationType,
} from './entities/alert-destination.entity';

export type AlertKindDestination = AlertDestination & { type: DestinationType };

/** A rotated-out secret keeps signing this long, so receivers can switch without missing a delivery. */
const PREVIOUS_SECRET_GRACE_MS = 24 * 3600 * 1000;

/** The workspace's alert destinations (the request's scope filters every query). */
@Injectable()
export class DestinationsService {
  constructor(
    private readonly em: EntityManager,
    private readonly sender: DeliverySender,
    private readonly planGate: PlanGate,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(query: PageQuery): Promise<Page<AlertDestinationDto>> {
    const [destinations, total] = await this.em.findAndCount(AlertDestination, ALERT_DESTINATIONS, {
      orderBy: { createdAt: 'asc', id: 'asc' },
      ...pageWindow(query),
    });
    return pageOf((destinations as AlertKindDestination[]).map(present), total, query);
  }

  async create(
    principal: WorkspacePrincipal,
    input: CreateAlertDestinationDto,
  ): Promise<AlertDestinationWithSecretDto> {
    const config = await this.checkedConfig(input.type, input.config);
    const secret = input.type === 'webhook' ? newSigningSecret() : null;
    const destination = await this.planGate.withRoom(
      principal.workspace.id,
      'alert_destinations',
      AlertDestination,
      1,
      (tx) =>
        tx.create(AlertDestination, {
          workspace: tx.getReference(Workspace, principal.workspace.id),
          name: input.name,
          type: input.type,
          config,
          events: input.events ?? [],
          enabled: input.enabled ?? true,
          secret,
        }),
      ALERT_DESTINATIONS,
    );
    return { ...present(destination as AlertKindDestination), secret };
  }

  async get(id: string): Promise<AlertDestinationDto> {
    return present(await this.owned(id));
  }

  async update(id: string, input: UpdateAlertDestinationDto): Promise<AlertDestinationDto> {
    const destination = await this.owned(id);
    if (input.config !== undefined) destination.config = await this.checkedConfig(destination.type, input.config);
    if (input.name !== undefined) destination.name = input.name;
    if (input.events !== undefined) destination.events = input.events;
    if (input.enabled !== undefined) {
      destination.enabled = input.enabled;
      if (input.enabled) destination.disabledReason = null;
    }
    await this.em.flush();
    return present(destination);
  }

  async delete(id: string): Promise<void> {
    if (!(await this.em.nativeDelete(AlertDestination, { id, ...ALERT_DESTINATIONS }))) {
      throw new NotFound('Alert destination');
    }
  }

  /** A new signing secret; the old one keeps signing for 24 hours. */
  async rotateSecret(id: string): Promise<AlertDestinationWithSecretDto> {
    const destination = await this.owned(id);
    if (destination.type !== 'webhook') {
      throw new DomainError('conflict', `A ${destination.type} destination has no signing secret to rotate.`);
    }
    destination.previousSecret = destination.secret;
    destination.previousSecretExpiresAt = new Date(Date.now() + PREVIOUS_SECRET_GRACE_MS);
    destination.secret = newSigningSecret();
    await this.em.flush();
    return { ...present(destination), secret: destination.secret };
  }

  /** Sends a `ping` now, outside the queue, and answers with what the receiver said. */
  async test(id: string): Promise<DestinationTestResultDto> {
    const destination = await this.owned(id);
    const outcome = await this.sender.send(destination, {
      id: `ping_${crypto.randomUUID()}`,
      type: 'ping',
      created_at: new Date().toISOString(),
      workspace_id: destination.workspace.id,
      data: { destination_id: destination.id, message: 'A test from Vigil.' },
    });
    const { response_status, duration_ms, response_body, error } = outcome.attempt;
    return { delivered: outcome.delivered, response_status, duration_ms, response_body, error };
  }

  private async owned(id: string): Promise<AlertKindDestination> {
    const destination = await this.em.findOne(AlertDestination, { id, ...ALERT_DESTINATIONS });
    if (!destination) throw new NotFound('Alert destination');
    return destination as AlertKindDestination;
  }

  /** The config a type needs, and nothing else; URLs must be public (checked again on every send). */
  private async checkedConfig(type: DestinationType, input: DestinationConfigInputDto): Promise<DestinationConfig> {
    const needs: Record<DestinationType, keyof DestinationConfigInputDto> = {
      webhook: 'url',
      slack: 'webhook_url',
      email: 'to',
    };
    const field = needs[type];
    const extra = (Object.keys(input) as (keyof DestinationConfigInputDto)[]).find(
      (key) => key !== field && input[key] !== undefined,
    );
    if (extra) throw ValidationFailed.field(`config.${extra}`, `is not used by a ${type} destination`);
    const value = input[field];
    if (value === undefined) throw ValidationFailed.field(`config.${field}`, `is required for a ${type} destination`);
    if (type === 'email') {
      if (!this.config.smtpUrl) {
        throw ValidationFailed.field('type', 'e-mail destinations need the service to have SMTP_URL set; it has none');
      }
      return { to: (value as string[]).map((address) => address.trim().toLowerCase()) };
    }
    await assertPublicTarget(value as string, `config.${field}`, this.config.allowPrivateTargets);
    return { [field]: value as string };
  }
}

export function present(destination: AlertKindDestination): AlertDestinationDto {
  return {
    id: destination.id,
    name: destination.name,
    type: destination.type,
    config: destination.config,
    events: destination.events,
    enabled: destination.enabled,
    disabled_reason: destination.disabledReason,
    created_at: destination.createdAt.toISOString(),
    declaration_key: destination.declarationKey,
  };
}
