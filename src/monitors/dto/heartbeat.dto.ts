import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { IntField } from '../../common/validation/fields';

export const PING_TOKEN_PATTERN = /^hb_[A-Za-z0-9_-]{32}$/;

/** `{token}` of a ping URL; a malformed one is a 400, a well-formed unknown one a 404. */
export class PingParams {
  @ApiProperty({
    type: 'string',
    pattern: PING_TOKEN_PATTERN.source,
    description: "The secret of the monitor's ping URL.",
  })
  @Matches(PING_TOKEN_PATTERN, { message: 'is not a ping token' })
  token: string;
}

export class PingQuery {
  @IntField({
    optional: true,
    min: 0,
    max: 255,
    description: "The job's exit code; on a success ping, a non-zero code makes it a failure.",
  })
  exit_code?: number;
}
