import { ApiProperty } from '@nestjs/swagger';
import { SCOPES, type Scope } from '../../common/auth/scopes';
import { PageOf } from '../../common/pagination/pagination';
import { DateTimeField, EnumArrayField, IntField, TextField, UuidField } from '../../common/validation/fields';
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
    };
  }
}

export class ApiKeyWithSecretDto extends ApiKeyDto {
  @ApiProperty({ type: 'string', description: 'The key itself, shown this once. Send it as `X-API-Key`.' })
  secret: string;
}

export class AdminApiKeyDto extends ApiKeyDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  user_id: string;

  @ApiProperty({ type: 'string', format: 'email' })
  user_email: string;
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
