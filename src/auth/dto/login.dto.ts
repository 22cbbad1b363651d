import { ApiProperty } from '@nestjs/swagger';
import { EmailField, TextField } from '../../common/validation/fields';

export class LoginDto {
  @EmailField()
  email: string;

  @TextField({ maxLength: 1024 })
  password: string;
}

export class LoginResponseDto {
  @ApiProperty({ type: 'string' })
  access_token: string;

  @ApiProperty({ type: 'string', enum: ['Bearer'] })
  token_type: 'Bearer';

  @ApiProperty({ type: 'integer', description: 'Seconds until the token expires.' })
  expires_in: number;
}
