import { Controller, Get, Header, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Public } from '../common/auth/access.decorators';
import { ApiProblemResponses } from '../common/errors/api-problem-responses';
import { BadgeParams, BadgeQuery } from './dto/monitor-queries.dto';
import { MonitorsService } from './monitors.service';

@ApiTags('monitors')
@Controller('badges')
export class BadgesController {
  constructor(private readonly monitors: MonitorsService) {}

  @Get(':token.svg')
  @Public()
  @Header('Content-Type', 'image/svg+xml; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=60')
  @ApiOperation({ operationId: 'getBadgeImage', summary: "A monitor's public status badge (SVG)" })
  @ApiProduces('image/svg+xml')
  @ApiOkResponse({
    description: 'The badge.',
    headers: { 'Cache-Control': { description: '`public, max-age=60`.', schema: { type: 'string' } } },
    content: { 'image/svg+xml': { schema: { type: 'string' } } },
  })
  @ApiProblemResponses(400, 404)
  image(@Param() { token }: BadgeParams, @Query() query: BadgeQuery): Promise<string> {
    return this.monitors.badgeImage(token, query.style);
  }
}
