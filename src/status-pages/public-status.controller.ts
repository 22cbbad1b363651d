import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController, ApiHeader, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { isEmail } from 'class-validator';
import type { Request, RequestHandler, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Public } from '../common/auth/access.decorators';
import { DomainError, NotFound, PROBLEM_CODES } from '../common/errors/domain-errors';
import { ApiProblemResponses } from '../common/errors/api-problem-responses';
import { webInterfaceHeaders } from '../http/web-interface';
import {
  PublicStatusPageDto,
  SlugParams,
  SubscribeDto,
  SubscriptionReceiptDto,
  SubscriptionTokenDto,
} from './dto/status-pages.dto';
import { type PublishedPage, PublicStatusService } from './public-status.service';
import { renderStatusAtom, renderStatusMessage, renderStatusNotFound, STATUS_STYLESHEET } from './status-site';
import { SubscriptionsService } from './subscribers/subscriptions.service';

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
  constructor(
    private readonly publicStatus: PublicStatusService,
    private readonly subscriptions: SubscriptionsService,
  ) {}

  @Post('subscriptions/confirm')
  @HttpCode(200)
  @Public()
  @ApiOperation({ operationId: 'confirmStatusPageSubscription', summary: 'Confirm an e-mail subscription (public)' })
  @ApiOkResponse({ type: SubscriptionReceiptDto, description: 'Confirmed.' })
  @ApiProblemResponses(400, 404, 413)
  confirm(@Body() { token }: SubscriptionTokenDto): Promise<SubscriptionReceiptDto> {
    return this.subscriptions.confirm(token);
  }

  @Post('subscriptions/unsubscribe')
  @HttpCode(200)
  @Public()
  @ApiOperation({ operationId: 'unsubscribeFromStatusPage', summary: 'Unsubscribe (public)' })
  @ApiOkResponse({ type: SubscriptionReceiptDto, description: 'Unsubscribed.' })
  @ApiProblemResponses(400, 404, 413)
  unsubscribe(@Body() { token }: SubscriptionTokenDto): Promise<SubscriptionReceiptDto> {
    return this.subscriptions.unsubscribe(token);
  }

  @Post(':slug/subscribers')
  @HttpCode(202)
  @Public()
  @ApiOperation({ operationId: 'subscribeToStatusPage', summary: 'Subscribe to a published status page (public)' })
  @ApiResponse({
    status: 202,
    type: SubscriptionReceiptDto,
    description: 'Received; an e-mail address is sent a confirmation link unless it is subscribed already.',
  })
  @ApiProblemResponses(400, 404, 413, 429)
  subscribe(
    @Param() { slug }: SlugParams,
    @Body() body: SubscribeDto,
    @Req() request: Request,
  ): Promise<SubscriptionReceiptDto> {
    return this.subscriptions.subscribe(slug, body, request.ip ?? 'unknown');
  }

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
    private readonly subscriptions: SubscriptionsService,
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

  /** The subscribe form of the page for people: the same subscription as the API's, answered with a page. */
  @Post(':slug/subscribe')
  @Public()
  async subscribe(
    @Param() { slug }: SlugParams,
    @Body() body: { email?: unknown },
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const email = typeof body.email === 'string' ? body.email.trim() : '';
    await this.answer(request, response, async () => {
      if (email.length > 254 || !isEmail(email)) {
        throw new DomainError('validation_failed', 'That does not look like an e-mail address; go back and try again.');
      }
      await this.subscriptions.subscribe(slug, { email }, request.ip ?? 'unknown');
      return renderStatusMessage(
        'Check your inbox',
        'If the address can be subscribed, a confirmation link is on its way.',
      );
    });
  }

  @Get(':slug/confirm')
  @Public()
  confirmPage(@Req() request: Request, @Res() response: Response): void {
    this.headers(request, response, () =>
      response.type('text/html').send(renderStatusMessage('Confirm your subscription', 'One more click.', 'Confirm')),
    );
  }

  @Post(':slug/confirm')
  @Public()
  async confirm(@Query() { token }: SubscriptionTokenDto, @Req() request: Request, @Res() response: Response) {
    await this.answer(request, response, async () => {
      await this.subscriptions.confirm(token);
      return renderStatusMessage('Subscribed', 'You will be told of incidents and maintenance on this page.');
    });
  }

  @Get(':slug/unsubscribe')
  @Public()
  unsubscribePage(@Req() request: Request, @Res() response: Response): void {
    this.headers(request, response, () =>
      response
        .type('text/html')
        .send(renderStatusMessage('Unsubscribe', 'You will be told nothing more about this page.', 'Unsubscribe')),
    );
  }

  /** Also RFC 8058's one-click POST (`List-Unsubscribe=One-Click`), which mail clients send to the link. */
  @Post(':slug/unsubscribe')
  @Public()
  async unsubscribe(@Query() { token }: SubscriptionTokenDto, @Req() request: Request, @Res() response: Response) {
    await this.answer(request, response, async () => {
      await this.subscriptions.unsubscribe(token);
      return renderStatusMessage('Unsubscribed', 'You will be told nothing more about this page.');
    });
  }

  /** Answers a form with a page: what `work` renders, or what went wrong in words, with its status. */
  private async answer(request: Request, response: Response, work: () => Promise<string>): Promise<void> {
    let status = 200;
    let page: string;
    try {
      page = await work();
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      status = PROBLEM_CODES[error.code].status;
      page = renderStatusMessage(PROBLEM_CODES[error.code].title, error.message);
    }
    this.headers(request, response, () => response.status(status).type('text/html').send(page));
  }

  private async published(slug: string): Promise<PublishedPage> {
    const page = await this.publicStatus.read(slug);
    if (!page.found) throw notPublished();
    return page;
  }
}
