import { ApiProperty } from '@nestjs/swagger';
import { SCOPES, type Scope } from '../../common/auth/scopes';
import { PageOf } from '../../common/pagination/pagination';
import { DateTimeField, EnumArrayField, IntField, TextField, UuidField } from '../../common/validation/fields';
import { PersonDto } from '../../users/dto/user.dto';
import type { ApiKey } from '../api-key.entity';

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

export class ApiKeyDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string' })
  name: string;

  @ApiProperty({ type: 'string', description: 'The first characters of the secret, to recognise the key by.' })
  prefix: string;

  @ApiProperty({ enum: SCOPES, enumName: 'Scope', isArray: true })
  scopes: Scope[];

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  expires_at: string | null;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'Updated at most once a minute.' })
  last_used_at: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  revoked_at: string | null;

  @ApiProperty({ type: 'integer', description: "The key's ceiling in requests per minute." })
  rate_limit_per_minute: number;

  @ApiProperty({
    type: () => PersonDto,
    nullable: true,
    description: 'The person who issued the key; it stays with the workspace when they leave.',
  })
  created_by: PersonDto | null;

  static from(key: ApiKey, defaultRateLimit: number): ApiKeyDto {
    return {
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      scopes: key.scopes,
      expires_at: iso(key.expiresAt),
      created_at: key.createdAt.toISOString(),
      last_used_at: iso(key.lastUsedAt),
      revoked_at: iso(key.revokedAt),
      rate_limit_per_minute: key.rateLimitPerMinute ?? defaultRateLimit,
      created_by: PersonDto.from(key.createdBy),
    };
  }
}

export class ApiKeyWithSecretDto extends ApiKeyDto {
  @ApiProperty({ type: 'string', description: 'The key itself, shown this once. Send it as `X-API-Key`.' })
  secret: string;
}

export class AdminApiKeyDto extends ApiKeyDto {
  @ApiProperty({
    type: 'string',
    format: 'uuid',
    nullable: true,
    description: "The key's creator (null if that person was deleted).",
  })
  user_id: string | null;

  @ApiProperty({ type: 'string', format: 'email', nullable: true })
  user_email: string | null;

  @ApiProperty({ type: 'string', format: 'uuid', description: 'The workspace the key acts in.' })
  workspace_id: string;
}

export const ApiKeyListDto = PageOf(ApiKeyDto, 'ApiKeyList');
export const AdminApiKeyListDto = PageOf(AdminApiKeyDto, 'AdminApiKeyList');

export class CreateApiKeyDto {
  @TextField({ maxLength: 100 })
  name: string;

  @EnumArrayField(SCOPES, 'Scope')
  scopes: Scope[];

  @DateTimeField({
    optional: true,
    description: 'When the key stops working; must be in the future. Omit for no expiry.',
  })
  expires_at?: Date;
}

export class RegenerateApiKeyDto {
  @UuidField({
    optional: true,
    description: 'The key to regenerate. Required with a session; defaults to the calling key.',
  })
  key_id?: string;
}

export class SetRateLimitDto {
  @IntField({ min: 1, max: 1_000_000 })
  requests_per_minute: number;
}
