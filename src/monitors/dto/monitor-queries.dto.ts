import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { PageQuery } from '../../common/pagination/pagination';
import { EnumField, TextField } from '../../common/validation/fields';
import { BADGE_STYLES, type BadgeStyle, UPTIME_WINDOWS, type UptimeWindow } from './monitor.dto';

export class UptimeQuery {
  @TextField({
    optional: true,
    maxLength: 50,
    description: "One region's figures; all of the monitor's regions together by default.",
  })
  region?: string;

  @EnumField(UPTIME_WINDOWS, 'UptimeWindow', {
    optional: true,
    description: 'The span of `response_times`; hourly points for `24h` and `7d`, daily points for `30d`.',
  })
  history?: UptimeWindow;
}

export class TrackedValuesQuery extends PageQuery {
  @TextField({ optional: true, maxLength: 100, description: 'Only readings of the tracked value with this name.' })
  name?: string;
}

export class ChecksQuery extends PageQuery {
  @TextField({ optional: true, maxLength: 50, description: "Only this region's results." })
  region?: string;
}

export const BADGE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

export class BadgeParams {
  @ApiProperty({
    type: 'string',
    pattern: BADGE_TOKEN_PATTERN.source,
    description: "The badge's token, from `POST /monitors/{id}/badge`.",
  })
  @Matches(BADGE_TOKEN_PATTERN, { message: 'is not a badge token' })
  token: string;
}

export class BadgeQuery {
  @EnumField(BADGE_STYLES, 'BadgeStyle', { optional: true, description: 'The shields.io style.' })
  style?: BadgeStyle;
}
