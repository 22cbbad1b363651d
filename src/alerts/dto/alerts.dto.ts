import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DeclarationKeyProperty } from '../../common/validation/declaration-key';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsEmail,
  IsIn,
  IsUUID,
  Length,
  ValidateIf,
} from 'class-validator';
import { PageOf, PageQuery } from '../../common/pagination/pagination';
import {
  BooleanField,
  EnumField,
  HttpUrlField,
  IntField,
  NestedField,
  TextField,
  UuidField,
} from '../../common/validation/fields';
import { EVENT_TYPES, type EventType } from '../../events/event.entity';
import { DESTINATION_TYPES, type DestinationType } from '../entities/alert-destination.entity';
import { RULE_EVENTS, RULE_STATES, type RuleEvent, type RuleState } from '../entities/alert-rule.entity';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../entities/webhook-delivery.entity';

const optional = () => ValidateIf((_object, value) => value !== undefined);

/** Distinct event types (none is fine: a destination may take only what rules send it). */
function EventTypesField(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ enum: EVENT_TYPES, enumName: 'EventType', isArray: true, uniqueItems: true }),
    optional(),
    IsArray({ message: 'must be an array' }),
    ArrayUnique({ message: 'must not repeat an event type' }),
    IsIn(EVENT_TYPES, { each: true, message: `must be one of ${EVENT_TYPES.join(', ')}` }),
  );
}

/** 1–20 distinct destination ids. */
function DestinationIdsField(options: { optional?: boolean } = {}): PropertyDecorator {
  const schema = {
    type: 'string',
    format: 'uuid',
    isArray: true,
    minItems: 1,
    maxItems: 20,
    uniqueItems: true,
  } as const;
  return applyDecorators(
    options.optional ? ApiPropertyOptional(schema) : ApiProperty(schema),
    ...(options.optional ? [optional()] : []),
    IsArray({ message: 'must be an array' }),
    ArrayMinSize(1, { message: 'must name at least one destination' }),
    ArrayMaxSize(20, { message: 'must name at most 20 destinations' }),
    ArrayUnique({ message: 'must not repeat a destination' }),
    IsUUID('all', { each: true, message: 'must be destination ids (UUIDs)' }),
  );
}

export class DestinationConfigInputDto {
  @HttpUrlField({ optional: true })
  url?: string;

  @HttpUrlField({ optional: true })
  webhook_url?: string;

  @ApiPropertyOptional({
    type: 'string',
    format: 'email',
    maxLength: 254,
    isArray: true,
    minItems: 1,
    maxItems: 20,
  })
  @optional()
  @IsArray({ message: 'must be an array' })
  @ArrayMinSize(1, { message: 'must name at least one address' })
  @ArrayMaxSize(20, { message: 'must name at most 20 addresses' })
  @Length(3, 254, { each: true, message: 'must be 3 to 254 characters long' })
  @IsEmail({}, { each: true, message: 'must be e-mail addresses' })
  to?: string[];
}

export class CreateAlertDestinationDto {
  @TextField({ maxLength: 100 })
  name: string;

  @EnumField(DESTINATION_TYPES, 'DestinationType')
  type: DestinationType;

  @NestedField(() => DestinationConfigInputDto)
  config: DestinationConfigInputDto;

  @EventTypesField()
  events?: EventType[];

  @BooleanField({ optional: true })
  enabled?: boolean;
}

export class UpdateAlertDestinationDto {
  @TextField({ maxLength: 100, optional: true })
  name?: string;

  @NestedField(() => DestinationConfigInputDto, { optional: true })
  config?: DestinationConfigInputDto;

  @EventTypesField()
  events?: EventType[];

  @BooleanField({ optional: true })
  enabled?: boolean;
}

export class DestinationConfigDto {
  @ApiPropertyOptional({ type: 'string' })
  url?: string;

  @ApiPropertyOptional({ type: 'string' })
  webhook_url?: string;

  @ApiPropertyOptional({ type: 'string', format: 'email', isArray: true })
  to?: string[];
}

export class AlertDestinationDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string' })
  name: string;

  @ApiProperty({ enum: DESTINATION_TYPES, enumName: 'DestinationType' })
  type: DestinationType;

  @ApiProperty({ type: () => DestinationConfigDto })
  config: DestinationConfigDto;

  @ApiProperty({ enum: EVENT_TYPES, enumName: 'EventType', isArray: true })
  events: EventType[];

  @ApiProperty({ type: 'boolean' })
  enabled: boolean;

  @ApiProperty({ type: 'string', nullable: true })
  disabled_reason: string | null;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at: string;

  @DeclarationKeyProperty()
  declaration_key: string | null;
}

export class AlertDestinationWithSecretDto extends AlertDestinationDto {
  @ApiProperty({ type: 'string', nullable: true })
  secret: string | null;
}

export const AlertDestinationListDto = PageOf(AlertDestinationDto, 'AlertDestinationList');

export class DestinationTestResultDto {
  @ApiProperty({ type: 'boolean' })
  delivered: boolean;

  @ApiProperty({ type: 'integer', nullable: true })
  response_status: number | null;

  @ApiProperty({ type: 'integer' })
  duration_ms: number;

  @ApiProperty({ type: 'string', nullable: true })
  response_body: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  error: string | null;
}

export class RuleConfirmInputDto {
  @IntField({ optional: true, min: 1, max: 20, default: 1 })
  consecutive_failures?: number;

  @IntField({ optional: true, min: 1, max: 20, default: 1 })
  min_regions?: number;
}

export class RuleConfirmDto {
  @ApiProperty({ type: 'integer' })
  consecutive_failures: number;

  @ApiProperty({ type: 'integer' })
  min_regions: number;
}

export class CreateAlertRuleDto {
  @EnumField(RULE_EVENTS, 'RuleEvent')
  event: RuleEvent;

  @DestinationIdsField()
  destination_ids: string[];

  @NestedField(() => RuleConfirmInputDto, { optional: true })
  confirm?: RuleConfirmInputDto;

  @IntField({ optional: true, min: 1, max: 120_000, description: 'Required for `response_time`.' })
  threshold_ms?: number;

  @IntField({
    optional: true,
    min: 1,
    max: 365,
    description: 'Required for `certificate_expiry` (and only taken there).',
  })
  days_before?: number;

  @BooleanField({ optional: true, default: true, description: 'Tell the same destinations when it recovers.' })
  notify_recovery?: boolean;

  @IntField({ optional: true, min: 5, max: 10_080 })
  reminder_minutes?: number;

  @BooleanField({ optional: true, default: true })
  enabled?: boolean;
}

export class UpdateAlertRuleDto {
  @DestinationIdsField({ optional: true })
  destination_ids?: string[];

  @NestedField(() => RuleConfirmInputDto, { optional: true })
  confirm?: RuleConfirmInputDto;

  @IntField({ optional: true, min: 1, max: 120_000 })
  threshold_ms?: number;

  @IntField({ optional: true, min: 1, max: 365 })
  days_before?: number;

  @BooleanField({ optional: true })
  notify_recovery?: boolean;

  @IntField({ optional: true, nullable: true, min: 5, max: 10_080 })
  reminder_minutes?: number | null;

  @BooleanField({ optional: true })
  enabled?: boolean;
}

export class AlertRuleDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string', format: 'uuid' })
  monitor_id: string;

  @ApiProperty({ enum: RULE_EVENTS, enumName: 'RuleEvent' })
  event: RuleEvent;

  @ApiProperty({ type: 'string', format: 'uuid', isArray: true })
  destination_ids: string[];

  @ApiProperty({ type: () => RuleConfirmDto })
  confirm: RuleConfirmDto;

  @ApiProperty({ type: 'integer', nullable: true })
  threshold_ms: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: '`certificate_expiry`: fires when the served certificate has at most this many days left.',
  })
  days_before: number | null;

  @ApiProperty({ type: 'boolean' })
  notify_recovery: boolean;

  @ApiProperty({ type: 'integer', nullable: true })
  reminder_minutes: number | null;

  @ApiProperty({ type: 'boolean' })
  enabled: boolean;

  @ApiProperty({ enum: RULE_STATES, enumName: 'RuleState' })
  state: RuleState;

  @DeclarationKeyProperty()
  declaration_key: string | null;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at: string;
}

export const AlertRuleListDto = PageOf(AlertRuleDto, 'AlertRuleList');

export class RuleParams {
  @UuidField({ description: "The resource's identifier." })
  id: string;

  @UuidField({ description: "The rule's identifier." })
  rule_id: string;
}

export class ListDeliveriesQuery extends PageQuery {
  @UuidField({ optional: true })
  destination_id?: string;

  @EnumField(DELIVERY_STATUSES, 'DeliveryStatus', { optional: true })
  status?: DeliveryStatus;

  @EnumField(EVENT_TYPES, 'EventType', { optional: true })
  event_type?: EventType;
}

export class DeliveryAttemptDto {
  @ApiProperty({ type: 'string', format: 'date-time' })
  at: string;

  @ApiProperty({ type: 'integer', nullable: true })
  response_status: number | null;

  @ApiProperty({ type: 'integer' })
  duration_ms: number;

  @ApiProperty({ type: 'string', nullable: true })
  error: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  response_body: string | null;
}

export class DeliveryRequestDto {
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  headers: Record<string, string>;

  @ApiProperty({ type: 'string' })
  body: string;
}

export class WebhookDeliveryDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string', format: 'uuid' })
  event_id: string;

  @ApiProperty({ enum: EVENT_TYPES, enumName: 'EventType' })
  event_type: EventType;

  @ApiProperty({ type: 'string', format: 'uuid' })
  destination_id: string;

  @ApiProperty({ type: 'string' })
  url: string;

  @ApiProperty({ enum: DELIVERY_STATUSES, enumName: 'DeliveryStatus' })
  status: DeliveryStatus;

  @ApiProperty({ type: () => [DeliveryAttemptDto] })
  attempts: DeliveryAttemptDto[];

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  next_attempt_at: string | null;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: () => DeliveryRequestDto })
  request: DeliveryRequestDto;
}

export const WebhookDeliveryListDto = PageOf(WebhookDeliveryDto, 'WebhookDeliveryList');

export class HeldAlertDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string', format: 'uuid', description: 'The dependent monitor whose alert was held.' })
  monitor_id: string;

  @ApiProperty()
  monitor_name: string;

  @ApiProperty({ type: 'string', format: 'uuid', description: 'The monitor that was down.' })
  parent_id: string;

  @ApiProperty({ type: 'string', format: 'uuid' })
  rule_id: string;

  @ApiProperty({ description: 'The region of the check that would have fired the rule.' })
  region: string;

  @ApiProperty({ type: 'integer', nullable: true })
  status_code: number | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'What the check found.' })
  message: string | null;

  @ApiProperty({ type: 'string', format: 'date-time' })
  checked_at: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  held_at: string;
}

export class HeldAlertListDto extends PageOf(HeldAlertDto, 'HeldAlertList') {}
