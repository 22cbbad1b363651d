import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ActingPrincipal, RequireScopes } from '../common/auth/access.decorators';
import type { WorkspacePrincipal } from '../common/auth/principal';
import { ApiProblemResponses } from '../common/errors/api-problem-responses';
import { type Page, setLinkHeader } from '../common/pagination/pagination';
import { IdParams } from '../common/validation/id-params';
import { PublicOrigin } from '../http/public-origin';
import { API_PREFIX } from '../http/version-alias.middleware';
import { CrawlService } from './crawl.service';
import {
  CrawlDto,
  CrawlListDto,
  CrawlPagesQuery,
  CrawlSummaryDto,
  CreatedMonitorsFromCrawlDto,
  CreateMonitorsFromCrawlDto,
  ListCrawlsQuery,
  StartCrawlDto,
} from './dto/crawl.dto';
import { Idempotent } from '../common/idempotency';

@ApiTags('crawl')
@Controller('crawl')
export class CrawlController {
  constructor(private readonly crawls: CrawlService) {}

  @Post()
  @Idempotent()
  @HttpCode(202)
  @RequireScopes('monitors:write')
  @ApiOperation({ operationId: 'startCrawl', summary: 'Start crawling a website to discover pages' })
  @ApiOkResponse({ type: CrawlSummaryDto, description: 'An identical earlier request with this request_key.' })
  @ApiAcceptedResponse({
    type: CrawlSummaryDto,
    description: 'The queued crawl.',
    headers: { Location: { description: "The crawl's URL.", schema: { type: 'string' } } },
  })
  @ApiProblemResponses(400, 404, 413, 422)
  async start(
    @ActingPrincipal() principal: WorkspacePrincipal,
    @Body() body: StartCrawlDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CrawlSummaryDto> {
    const { crawl, created } = await this.crawls.start(principal, body);
    if (created) response.location(`${API_PREFIX}/crawl/${crawl.id}`);
    else response.status(200);
    return crawl;
  }

  @Get()
  @RequireScopes('monitors:read')
  @ApiOperation({ operationId: 'listCrawls', summary: 'List crawls' })
  @ApiOkResponse({ type: CrawlListDto, description: 'A page of crawls, newest first.' })
  @ApiProblemResponses(400, 404)
  list(@Query() query: ListCrawlsQuery): Promise<Page<CrawlSummaryDto>> {
    return this.crawls.list(query);
  }

  @Get(':id')
  @RequireScopes('monitors:read')
  @ApiOperation({ operationId: 'getCrawl', summary: 'Crawl job status and discovered URLs' })
  @ApiOkResponse({ type: CrawlDto, description: 'The crawl with a page of its pages.' })
  @ApiProblemResponses(400, 404)
  async get(
    @Param() { id }: IdParams,
    @Query() query: CrawlPagesQuery,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CrawlDto> {
    const crawl = await this.crawls.get(id, query);
    setLinkHeader(request, response, { data: crawl.pages, pagination: crawl.pagination });
    return crawl;
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @RequireScopes('monitors:write')
  @ApiOperation({ operationId: 'cancelCrawl', summary: 'Stop a queued or running crawl' })
  @ApiOkResponse({ type: CrawlSummaryDto, description: 'The cancelled crawl.' })
  @ApiProblemResponses(400, 404, 409)
  cancel(@Param() { id }: IdParams): Promise<CrawlSummaryDto> {
    return this.crawls.cancel(id);
  }

  @Post(':id/create-monitors')
  @Idempotent()
  @RequireScopes('monitors:write')
  @ApiOperation({ operationId: 'createMonitorsFromCrawl', summary: 'Create monitors from selected crawl results' })
  @ApiCreatedResponse({ type: CreatedMonitorsFromCrawlDto, description: 'The monitors created and the URLs skipped.' })
  @ApiProblemResponses(400, 404, 409, 413)
  createMonitors(
    @ActingPrincipal() principal: WorkspacePrincipal,
    @Param() { id }: IdParams,
    @Body() body: CreateMonitorsFromCrawlDto,
    @PublicOrigin() origin: string,
  ): Promise<CreatedMonitorsFromCrawlDto> {
    return this.crawls.createMonitors(principal, id, body, origin);
  }
}
