import { ApiProperty } from '@nestjs/swagger';
import { PageOf } from '../../common/pagination/pagination';
import { BooleanField, EnumField, HttpUrlField, IntField, TextField } from '../../common/validation/fields';
import { CODE_HOST_PROVIDERS, type CodeHostProvider } from '../../alerts/entities/alert-destination.entity';

const NAMESPACE = {
  maxLength: 255,
  pattern: {
    source: '^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*$',
    message: 'must be an account, group or project path such as acme or platform/web',
  },
} as const;
const NUMERIC_ID = { min: 1, max: Number.MAX_SAFE_INTEGER } as const;
const PRIVATE_KEY = { maxLength: 16_384 } as const;
const TOKEN = { maxLength: 512, pattern: { source: '^\\S+$', message: 'must not contain spaces' } } as const;

export class CreateCodeHostConnectionDto {
  @TextField({ maxLength: 100 })
  name: string;

  @EnumField(CODE_HOST_PROVIDERS, 'SourceProvider')
  provider: CodeHostProvider;

  @TextField({ ...NAMESPACE, description: 'A GitHub account, or a GitLab group or project path.' })
  namespace: string;

  @IntField({ ...NUMERIC_ID, optional: true })
  app_id?: number;

  @IntField({ ...NUMERIC_ID, optional: true })
  installation_id?: number;

  @TextField({ ...PRIVATE_KEY, optional: true, description: "The GitHub App's private key, PEM. Write-only." })
  private_key?: string;

  @TextField({ ...TOKEN, optional: true, description: 'A GitLab access token with the `api` scope. Write-only.' })
  token?: string;

  @HttpUrlField({ optional: true, description: "Self-managed GitLab's address." })
  base_url?: string;

  @BooleanField({ optional: true })
  enabled?: boolean;
}

export class UpdateCodeHostConnectionDto {
  @TextField({ maxLength: 100, optional: true })
  name?: string;

  @TextField({ ...NAMESPACE, optional: true })
  namespace?: string;

  @IntField({ ...NUMERIC_ID, optional: true })
  app_id?: number;

  @IntField({ ...NUMERIC_ID, optional: true })
  installation_id?: number;

  @TextField({ ...PRIVATE_KEY, optional: true })
  private_key?: string;

  @TextField({ ...TOKEN, optional: true })
  token?: string;

  @HttpUrlField({ optional: true })
  base_url?: string;

  @BooleanField({ optional: true })
  enabled?: boolean;
}

export class CodeHostConnectionDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string' })
  name: string;

  @ApiProperty({ enum: CODE_HOST_PROVIDERS, enumName: 'SourceProvider' })
  provider: CodeHostProvider;

  @ApiProperty({ type: 'string' })
  namespace: string;

  @ApiProperty({ type: 'integer', nullable: true })
  app_id: number | null;

  @ApiProperty({ type: 'integer', nullable: true })
  installation_id: number | null;

  @ApiProperty({ type: 'string', nullable: true })
  base_url: string | null;

  @ApiProperty({ type: 'boolean' })
  enabled: boolean;

  @ApiProperty({ type: 'string', nullable: true })
  disabled_reason: string | null;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  updated_at: string;
}

export const CodeHostConnectionListDto = PageOf(CodeHostConnectionDto, 'CodeHostConnectionList');

export class CodeHostConnectionTestResultDto {
  @ApiProperty({ type: 'boolean' })
  ok: boolean;

  @ApiProperty({ type: 'integer', nullable: true })
  response_status: number | null;

  @ApiProperty({ type: 'string' })
  detail: string;
}
