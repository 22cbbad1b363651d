import { applyDecorators } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiProperty,
  ApiPropertyOptional,
  type ApiPropertyOptions,
  getSchemaPath,
  OmitType,
} from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsObject,
  Matches,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { CreateAlertDestinationDto, CreateAlertRuleDto, DestinationConfigInputDto } from '../../alerts/dto/alerts.dto';
import { BooleanField, NestedField, TextField, UuidField } from '../../common/validation/fields';
import { CreateMaintenanceWindowDto } from '../../maintenance/dto/maintenance-windows.dto';
import { CreateMonitorDto } from '../../monitors/dto/monitor-requests.dto';
import { CreateStatusPageDto } from '../../status-pages/dto/status-pages.dto';
import { DECLARATION_KINDS, type DeclarationKind } from '../declaration-plan';

/** A logical key: chosen by the author, stable, unique per kind (a rule's, per monitor). */
export const DECLARATION_KEY = /^[a-z0-9][a-z0-9_-]{0,62}$/;
const KEY_RULE = 'lower-case letters, digits, `-` and `_`, starting with a letter or digit, at most 63 characters';
export const KEY_MESSAGE = `must be a key: ${KEY_RULE}`;

/** A list of logical keys naming other resources of the document. */
function KeysField(options: {
  description: string;
  minItems: number;
  maxItems: number;
  optional?: boolean;
}): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      type: 'array',
      required: options.optional !== true,
      description: options.description,
      ...(options.minItems ? { minItems: options.minItems } : {}),
      maxItems: options.maxItems,
      uniqueItems: true,
      items: { type: 'string', pattern: DECLARATION_KEY.source },
    }),
    ValidateIf((_, value) => options.optional !== true || value !== undefined),
    IsArray({ message: 'must be an array' }),
    ArrayMinSize(options.minItems, { message: `must hold at least ${options.minItems} key(s)` }),
    ArrayMaxSize(options.maxItems, { message: `must hold at most ${options.maxItems} keys` }),
    Matches(DECLARATION_KEY, { each: true, message: `each value ${KEY_MESSAGE}` }),
  );
}

/** Resources of one kind by their logical keys. Each is validated by the service, which knows the path to name. */
function KeyedField(model: () => object, description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'object',
      description,
      // Editors check the keys too (JSON Schema's propertyNames; the decorator's types do not know it).
      ...({ propertyNames: { type: 'string', pattern: DECLARATION_KEY.source } } as object),
      additionalProperties: { $ref: getSchemaPath(model() as never) },
    }),
    ValidateIf((_, value) => value !== undefined),
    IsObject({ message: 'must be an object of resources by their keys' }),
  );
}

const ADOPT =
  'An existing resource of the workspace, not managed by a declaration, to take over instead of creating one ' +
  '(how a workspace exported with `GET /workspaces/{id}/declaration` is adopted).';

const SECRET_URL =
  'A URL; in a file, a `${ENV}` reference the CLI resolves before sending (a secret: never shown, never exported).';

/** A destination's settings as a file writes them: its URLs may be `${ENV}` references until they are sent. */
export class DeclaredDestinationConfigDto extends OmitType(DestinationConfigInputDto, ['url', 'webhook_url'] as const) {
  @TextField({ optional: true, maxLength: 2048, description: SECRET_URL })
  url?: string;

  @TextField({ optional: true, maxLength: 2048, description: SECRET_URL })
  webhook_url?: string;
}

export class DeclaredAlertDestinationDto extends OmitType(CreateAlertDestinationDto, ['config'] as const) {
  @UuidField({ optional: true, description: ADOPT })
  id?: string;

  @NestedField(() => DeclaredDestinationConfigDto)
  config: DeclaredDestinationConfigDto;
}

export class DeclaredAlertRuleDto extends OmitType(CreateAlertRuleDto, ['destination_ids'] as const) {
  @UuidField({ optional: true, description: ADOPT })
  id?: string;

  @KeysField({ description: 'The keys of the `alert_destinations` it notifies.', minItems: 1, maxItems: 20 })
  destinations: string[];
}

@ApiExtraModels(DeclaredAlertRuleDto)
export class DeclaredMonitorDto extends OmitType(CreateMonitorDto, ['parent_id'] as const) {
  @UuidField({ optional: true, description: ADOPT })
  id?: string;

  @TextField({
    optional: true,
    nullable: true,
    maxLength: 63,
    description: 'The key of the monitor this one depends on; null for none.',
  })
  parent?: string | null;

  @KeyedField(() => DeclaredAlertRuleDto, "The monitor's alert rules by their keys (unique within the monitor).")
  rules?: Record<string, DeclaredAlertRuleDto>;
}

export class DeclaredStatusPageComponentDto {
  @TextField({ maxLength: 100 })
  name: string;

  @KeysField({ description: 'The keys of the `monitors` it shows.', minItems: 0, maxItems: 500 })
  monitors: string[];
}

export class DeclaredStatusPageDto extends OmitType(CreateStatusPageDto, ['components'] as const) {
  @UuidField({ optional: true, description: ADOPT })
  id?: string;

  @ApiPropertyOptional({
    type: () => [DeclaredStatusPageComponentDto],
    maxItems: 50,
    description: 'Its components, in order; a component keeps its identity (and its subscribers) by its name.',
  })
  @ValidateIf((_, value) => value !== undefined)
  @IsArray({ message: 'must be an array' })
  @ArrayMaxSize(50, { message: 'must hold at most 50 items' })
  @ValidateNested({ each: true })
  @Type(() => DeclaredStatusPageComponentDto)
  components?: DeclaredStatusPageComponentDto[];
}

export class DeclaredMaintenanceWindowDto extends OmitType(CreateMaintenanceWindowDto, ['monitor_ids'] as const) {
  @UuidField({ optional: true, description: ADOPT })
  id?: string;

  @KeysField({
    description: 'The keys of the `monitors` it covers; empty or left out, every monitor of the workspace.',
    minItems: 0,
    maxItems: 1000,
    optional: true,
  })
  monitors?: string[];
}

@ApiExtraModels(DeclaredMonitorDto, DeclaredAlertDestinationDto, DeclaredStatusPageDto, DeclaredMaintenanceWindowDto)
export class DeclarationDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 1, description: 'The version of this format: `1`.' })
  @IsIn([1], { message: 'must be 1' })
  version: 1;

  @KeyedField(() => DeclaredAlertDestinationDto, 'Alert destinations by their keys.')
  alert_destinations?: Record<string, DeclaredAlertDestinationDto>;

  @KeyedField(() => DeclaredMonitorDto, 'Monitors by their keys, each with its rules.')
  monitors?: Record<string, DeclaredMonitorDto>;

  @KeyedField(() => DeclaredStatusPageDto, 'Status pages by their keys.')
  status_pages?: Record<string, DeclaredStatusPageDto>;

  @KeyedField(() => DeclaredMaintenanceWindowDto, 'Maintenance windows by their keys.')
  maintenance_windows?: Record<string, DeclaredMaintenanceWindowDto>;
}

export class DeclarationPlanRequestDto {
  @ApiProperty({ type: () => DeclarationDto })
  @IsObject({ message: 'must be a declaration (an object)' })
  document: Record<string, unknown>;

  @BooleanField({
    optional: true,
    default: false,
    description: 'Delete the managed resources the document no longer names. Unmanaged resources are never deleted.',
  })
  prune?: boolean;
}

export class DeclarationApplyRequestDto extends DeclarationPlanRequestDto {
  @TextField({
    maxLength: 64,
    description: "The plan's `fingerprint`: the workspace must not have moved since that plan was made.",
  })
  fingerprint: string;
}

/** A field's value: whatever JSON the field holds. */
const ANY_VALUE = {
  oneOf: [
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'array', items: {} },
    { type: 'object', additionalProperties: true },
    { type: 'null' },
  ],
} as unknown as ApiPropertyOptions;

export class DeclarationFieldChangeDto {
  @ApiProperty({ type: 'string', description: 'The field, as a dotted path within the resource.' })
  field: string;

  @ApiProperty({ ...ANY_VALUE, description: 'Its value now; null for a secret, and before a creation.' })
  before: unknown;

  @ApiProperty({ ...ANY_VALUE, description: 'Its value after; null for a secret.' })
  after: unknown;

  @ApiProperty({ type: 'boolean', description: 'A secret: it changes, but its values are never shown.' })
  secret: boolean;
}

export class DeclarationChangeDto {
  @ApiProperty({ enum: ['create', 'update', 'delete'] })
  action: 'create' | 'update' | 'delete';

  @ApiProperty({ enum: DECLARATION_KINDS, enumName: 'DeclarationKind' })
  kind: DeclarationKind;

  @ApiProperty({ type: 'string', description: "The resource's key (a rule's: `<monitor key>/<rule key>`)." })
  key: string;

  @ApiProperty({
    type: 'string',
    format: 'uuid',
    nullable: true,
    description: 'Null for a resource yet to be created.',
  })
  id: string | null;

  @ApiProperty({ type: () => [DeclarationFieldChangeDto], description: 'What changes; empty for a deletion.' })
  fields: DeclarationFieldChangeDto[];
}

export class DeclarationPlanDto {
  @ApiProperty({
    type: 'string',
    description: 'What the plan was made from; `apply` takes it and refuses with `409 plan_stale` once it moved.',
  })
  fingerprint: string;

  @ApiProperty({
    type: () => [DeclarationChangeDto],
    description: 'In the order they are (or were) made; empty when nothing changes.',
  })
  changes: DeclarationChangeDto[];
}
