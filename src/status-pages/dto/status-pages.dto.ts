import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DeclarationKeyProperty } from '../../common/validation/declaration-key';
import { ArrayMaxSize, ArrayUnique, IsArray, IsString, IsUUID, Length, Matches, ValidateIf } from 'class-validator';
import { PageOf } from '../../common/pagination/pagination';
import {
  BooleanField,
  EmailField,
  EnumField,
  HttpUrlField,
  IsStorableText,
  NestedArrayField,
  TextField,
  UuidField,
} from '../../common/validation/fields';
import { SUBSCRIBER_KINDS, type SubscriberKind } from '../entities/status-page-subscriber.entity';
import {
  INCIDENT_IMPACTS,
  INCIDENT_STATUSES,
  type IncidentImpact,
  type IncidentStatus,
} from '../entities/incident.entity';

export const OUTAGE_STATUSES = ['operational', 'degraded', 'partial_outage', 'major_outage'] as const;
export const SERVICE_STATUSES = [...OUTAGE_STATUSES, 'under_maintenance'] as const;
export type ServiceStatus = (typeof SERVICE_STATUSES)[number];
export const DAY_STATUSES = [...OUTAGE_STATUSES, 'no_data'] as const;
export type DayStatus = (typeof DAY_STATUSES)[number];

const SLUG_PATTERN = '^[a-z0-9](?:[a-z0-9-]{1,58})[a-z0-9]$';
const SLUG_SCHEMA = { type: 'string', pattern: SLUG_PATTERN, minLength: 3, maxLength: 60 } as const;

/** A slug: lower-case letters, digits and hyphens, 3–60 characters, no hyphen at either end. */
export function SlugField(options: { optional?: boolean } = {}): PropertyDecorator {
  return applyDecorators(
    options.optional ? ApiPropertyOptional(SLUG_SCHEMA) : ApiProperty(SLUG_SCHEMA),
    ...(options.optional ? [ValidateIf((_, value) => value !== undefined)] : []),
    IsString({ message: 'must be a string' }),
    Matches(new RegExp(SLUG_PATTERN), {
      message: 'must be 3 to 60 lower-case letters, digits and hyphens, not starting or ending with a hyphen',
    }),
  );
}

export class SlugParams {
  @SlugField()
  slug: string;
}

export class IncidentParams {
  @UuidField({ description: "The status page's identifier." })
  id: string;

  @UuidField({ description: "The incident's identifier." })
  incident_id: string;
}

/** A description that may be sent as null (no description). */
function DescriptionField(options: { optional?: boolean } = {}): PropertyDecorator {
  const schema = { type: 'string', nullable: true, maxLength: 2000 } as const;
  return applyDecorators(
    options.optional ? ApiPropertyOptional(schema) : ApiProperty(schema),
    ValidateIf((_, value) => value !== undefined && value !== null),
    IsString({ message: 'must be a string or null' }),
    IsStorableText(),
    Length(0, 2000, { message: 'must be at most 2000 characters long' }),
  );
}

/** Up to 500 distinct monitor ids (which of them are the workspace's is the service's question). */
function MonitorIdsField(): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: 'string', format: 'uuid', isArray: true, uniqueItems: true, maxItems: 500 }),
    IsArray({ message: 'must be an array' }),
    ArrayMaxSize(500, { message: 'must hold at most 500 monitor ids' }),
    ArrayUnique({ message: 'must not repeat a monitor' }),
    IsUUID('all', { each: true, message: 'must be monitor ids (UUIDs)' }),
  );
}

export class StatusPageComponentInputDto {
  @UuidField({ optional: true })
  id?: string;

  @TextField({ maxLength: 100 })
  name: string;

  @MonitorIdsField()
  monitor_ids: string[];
}

export class CreateStatusPageDto {
  @SlugField()
  slug: string;

  @TextField({ maxLength: 120 })
  title: string;

  @DescriptionField({ optional: true })
  description?: string | null;

  @BooleanField({ optional: true, default: false })
  published?: boolean;

  @NestedArrayField(() => StatusPageComponentInputDto, { optional: true, minItems: 0, maxItems: 50, default: [] })
  components?: StatusPageComponentInputDto[];
}

export class UpdateStatusPageDto {
  @SlugField({ optional: true })
  slug?: string;

  @TextField({ optional: true, maxLength: 120 })
  title?: string;

  @DescriptionField({ optional: true })
  description?: string | null;

  @BooleanField({ optional: true })
  published?: boolean;

  @NestedArrayField(() => StatusPageComponentInputDto, { optional: true, minItems: 0, maxItems: 50 })
  components?: StatusPageComponentInputDto[];
}

export class StatusPageComponentDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: 'string', format: 'uuid', isArray: true })
  monitor_ids: string[];
}

export class StatusPageDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty(SLUG_SCHEMA)
  slug: string;

  @ApiProperty()
  title: string;

  @ApiProperty({ type: 'string', nullable: true })
  description: string | null;

  @ApiProperty()
  published: boolean;

  @ApiProperty()
  public_url: string;

  @ApiProperty({ type: () => [StatusPageComponentDto] })
  components: StatusPageComponentDto[];

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  updated_at: string;

  @DeclarationKeyProperty()
  declaration_key: string | null;
}

export class StatusPageListDto extends PageOf(StatusPageDto, 'StatusPageList') {}

export class CreateIncidentDto {
  @TextField({ maxLength: 200 })
  title: string;

  @EnumField(INCIDENT_IMPACTS, 'IncidentImpact')
  impact: IncidentImpact;

  @EnumField(INCIDENT_STATUSES, 'IncidentStatus', { optional: true, default: 'investigating' })
  status?: IncidentStatus;

  @TextField({ maxLength: 5000 })
  message: string;
}

export class UpdateIncidentDto {
  @EnumField(INCIDENT_STATUSES, 'IncidentStatus')
  status: IncidentStatus;

  @TextField({ maxLength: 5000 })
  message: string;

  @TextField({ optional: true, maxLength: 200 })
  title?: string;

  @EnumField(INCIDENT_IMPACTS, 'IncidentImpact', { optional: true })
  impact?: IncidentImpact;
}

export class IncidentUpdateDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ enum: INCIDENT_STATUSES, enumName: 'IncidentStatus' })
  status: IncidentStatus;

  @ApiProperty()
  message: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at: string;
}

export class IncidentDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty()
  title: string;

  @ApiProperty({ enum: INCIDENT_IMPACTS, enumName: 'IncidentImpact' })
  impact: IncidentImpact;

  @ApiProperty({ enum: INCIDENT_STATUSES, enumName: 'IncidentStatus' })
  status: IncidentStatus;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  resolved_at: string | null;

  @ApiProperty({ type: () => [IncidentUpdateDto] })
  updates: IncidentUpdateDto[];
}

export class IncidentListDto extends PageOf(IncidentDto, 'IncidentList') {}

export class PublicStatusDayDto {
  @ApiProperty({ type: 'string', format: 'date' })
  date: string;

  @ApiProperty({ type: 'number', nullable: true })
  uptime: number | null;

  @ApiProperty({ enum: DAY_STATUSES, enumName: 'DayStatus' })
  status: DayStatus;
}

export class PublicMaintenanceDto {
  @ApiProperty()
  name: string;

  @ApiProperty({ type: 'string', nullable: true })
  message: string | null;

  @ApiProperty({ type: 'string', format: 'date-time' })
  starts_at: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  ends_at: string;

  @ApiProperty({ type: 'string', isArray: true, description: "The names of the page's components it covers." })
  components: string[];
}

export class PublicStatusComponentDto {
  @ApiProperty({ type: 'string', format: 'uuid', description: "The component's id, to subscribe to it alone." })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ enum: SERVICE_STATUSES, enumName: 'ServiceStatus' })
  status: ServiceStatus;

  @ApiProperty({
    type: () => PublicMaintenanceDto,
    nullable: true,
    description: "The active maintenance covering the component's monitors; null when none is.",
  })
  maintenance: PublicMaintenanceDto | null;

  @ApiProperty({ type: 'number', nullable: true })
  uptime_90d: number | null;

  @ApiProperty({ type: () => [PublicStatusDayDto] })
  days: PublicStatusDayDto[];
}

export class PublicIncidentUpdateDto {
  @ApiProperty({ enum: INCIDENT_STATUSES, enumName: 'IncidentStatus' })
  status: IncidentStatus;

  @ApiProperty()
  message: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at: string;
}

export class PublicIncidentDto {
  @ApiProperty()
  title: string;

  @ApiProperty({ enum: INCIDENT_IMPACTS, enumName: 'IncidentImpact' })
  impact: IncidentImpact;

  @ApiProperty({ enum: INCIDENT_STATUSES, enumName: 'IncidentStatus' })
  status: IncidentStatus;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  resolved_at: string | null;

  @ApiProperty({ type: () => [PublicIncidentUpdateDto] })
  updates: PublicIncidentUpdateDto[];
}

export class PublicStatusPageDto {
  @ApiProperty()
  title: string;

  @ApiProperty({ type: 'string', nullable: true })
  description: string | null;

  @ApiProperty({ enum: SERVICE_STATUSES, enumName: 'ServiceStatus' })
  status: ServiceStatus;

  @ApiProperty({ type: () => [PublicStatusComponentDto] })
  components: PublicStatusComponentDto[];

  @ApiProperty({
    type: () => [PublicMaintenanceDto],
    description:
      "Maintenance covering the page's components: under way, and starting in the next 7 days, soonest first.",
  })
  maintenance: PublicMaintenanceDto[];

  @ApiProperty({ type: () => [PublicIncidentDto] })
  incidents: PublicIncidentDto[];

  @ApiProperty()
  method: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  updated_at: string;
}

export class SubscriberParams {
  @UuidField({ description: "The status page's identifier." })
  id: string;

  @UuidField({ description: "The subscriber's identifier." })
  subscriber_id: string;
}

export class SubscribeDto {
  @EmailField({ optional: true })
  email?: string;

  @HttpUrlField({ optional: true, description: 'A public http(s) URL without credentials.' })
  webhook_url?: string;

  @ApiPropertyOptional({
    type: 'string',
    format: 'uuid',
    isArray: true,
    uniqueItems: true,
    maxItems: 50,
    description: 'Only these components (their public `id`s); the whole page when left out or empty.',
  })
  @ValidateIf((_, value) => value !== undefined)
  @IsArray({ message: 'must be an array' })
  @ArrayMaxSize(50, { message: 'must hold at most 50 components' })
  @ArrayUnique({ message: 'must not repeat a component' })
  @IsUUID('all', { each: true, message: 'must be component ids (UUIDs)' })
  component_ids?: string[];
}

export class SubscriptionTokenDto {
  @TextField({ maxLength: 300 })
  token: string;
}

export const SUBSCRIPTION_STATUSES = ['confirmation_sent', 'subscribed', 'confirmed', 'unsubscribed'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export class SubscriptionReceiptDto {
  @ApiProperty({ enum: SUBSCRIPTION_STATUSES })
  status: SubscriptionStatus;
}

export class StatusPageSubscriberDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ enum: SUBSCRIBER_KINDS })
  kind: SubscriberKind;

  @ApiProperty({ type: 'string', nullable: true })
  email: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  webhook_url: string | null;

  @ApiProperty({
    type: 'string',
    format: 'uuid',
    isArray: true,
    description: 'The components it follows; empty for the whole page.',
  })
  component_ids: string[];

  @ApiProperty({ description: 'An e-mail address is told nothing until it confirms.' })
  confirmed: boolean;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at: string;
}

export class StatusPageSubscriberListDto extends PageOf(StatusPageSubscriberDto, 'StatusPageSubscriberList') {}
