import { Controller, Get, Headers, Inject, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController, ApiHeader, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, RequestHandler, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Public } from '../common/auth/access.decorators';
import { NotFound } from '../common/errors/domain-errors';
import { ApiProblemResponses } from '../common/errors/api-problem-responses';
import { webInterfaceHeaders } from '../http/web-interface';
import { PublicStatusPageDto, SlugParams } from './dto/status-pages.dto';
import { type PublishedPage, PublicStatusService } from './public-status.service';
import { renderStatusAtom, renderStatusNotFound, STATUS_STYLESHEET } from './status-site';

const CACHE_CONTROL = 'public, max-age=60';

/** Answers a cached page: 304 when the visitor holds it already, else the body with its ETag. */
function sendCached(request: Request, response: Response, etag: string, type: string, body: () => string): void {
  response.setHeader('Cache-Control', CACHE_CONTROL);
  response.setHeader('ETag', etag);
  const held = request.headers['if-none-match'];
  if (held !== undefined && held.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
    response.status(304).end();
    return;
  }
  response.type(type).send(body());
}

const notPublished = () => new NotFound('Status page', 'No published status page has this address.');

/** `GET /status-pages/public/{slug}`: the public JSON, no credentials. */
@ApiTags('status-pages')
@Controller('status-pages/public')
export class PublicStatusController {
  constructor(private readonly publicStatus: PublicStatusService) {}

  @Get(':slug')
  @Public()
  @ApiOperation({ operationId: 'getPublicStatusPage', summary: 'Read a published status page (public)' })
  @ApiHeader({ name: 'If-None-Match', required: false, schema: { type: 'string' } })
  @ApiOkResponse({ type: PublicStatusPageDto, description: 'The public status page.' })
  @ApiResponse({ status: 304, description: 'Not modified since the `ETag` sent in `If-None-Match`.' })
  @ApiProblemResponses(400, 404)
  async read(@Param() { slug }: SlugParams, @Req() request: Request, @Res() response: Response): Promise<void> {
    const page = await this.publicStatus.read(slug);
    if (!page.found) throw notPublished();
    sendCached(request, response, page.etag, 'application/json', () => page.json);
  }
}

/** The status page for people at `/status/{slug}` and its Atom feed: outside the API, served with the interface's headers. */
@ApiExcludeController()
@Controller('status')
export class StatusSiteController {
  private readonly headers: RequestHandler;

  constructor(
    private readonly publicStatus: PublicStatusService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.headers = webInterfaceHeaders({ hsts: config.publicUrl?.startsWith('https:') ?? false });
  }

  @Get('-/status.css')
  @Public()
  stylesheet(@Req() request: Request, @Res() response: Response): void {
    this.headers(request, response, () => {
      response.setHeader('Cache-Control', 'public, max-age=3600');
      response.type('text/css').send(STATUS_STYLESHEET);
    });
  }

  @Get(':slug')
  @Public()
  async page(@Param() { slug }: SlugParams, @Req() request: Request, @Res() response: Response): Promise<void> {
    const page = await this.publicStatus.read(slug);
    this.headers(request, response, () => {
      // People get a page saying so, not a problem document.
      if (!page.found) return void response.status(404).type('text/html').send(renderStatusNotFound());
      sendCached(request, response, `"html-${page.etag.slice(1)}`, 'text/html', () =>
        this.publicStatus.html(slug, page),
      );
    });
  }

  @Get(':slug/feed.atom')
  @Public()
  async feed(
    @Param() { slug }: SlugParams,
    @Headers('host') host: string | undefined,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const page = await this.published(slug);
    // Behind a proxy the Host header is whatever the client sent; PUBLIC_URL, when set, is the service's own word.
    const origin = this.config.publicUrl ?? `${request.protocol}://${host ?? 'localhost'}`;
    this.headers(request, response, () =>
      sendCached(request, response, `"atom-${page.etag.slice(1)}`, 'application/atom+xml', () =>
        renderStatusAtom(JSON.parse(page.json) as PublicStatusPageDto, slug, origin),
      ),
    );
  }

  private async published(slug: string): Promise<PublishedPage> {
    const page = await this.publicStatus.read(slug);
    if (!page.found) throw notPublished();
    return page;
  }
}
