import { Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { Public, RequireScopes } from '../common/auth/access.decorators';
import { ApiProblemResponses } from '../common/errors/api-problem-responses';
import { ProblemDto } from '../common/errors/problem.dto';
import { IdParams } from '../common/validation/id-params';
import { PublicOrigin } from '../http/public-origin';
import { PingExitCodeParams, PingParams, PingQuery } from './dto/heartbeat.dto';
import { MonitorDto, PingReceiptDto } from './dto/monitor.dto';
import { HeartbeatsService, type PingKind } from './heartbeats.service';

/** A ping's body as the job sent it: text as it is, anything parsed as JSON written back as JSON. */
function outputOf(request: Request): string | null {
  const body: unknown = request.body;
  if (typeof body === 'string') return body === '' ? null : body;
  if (body === undefined || body === null || (typeof body === 'object' && Object.keys(body).length === 0)) return null;
  return JSON.stringify(body);
}

const PING_OK = { type: PingReceiptDto, description: 'Received.' };
/** A ping takes any type of body, so it has a 413 (over 10 KiB) but no 415. */
const PING_TOO_LARGE = {
  status: 413,
  description: 'The body is larger than 10 KiB.',
  content: { 'application/problem+json': { schema: { $ref: getSchemaPath(ProblemDto) } } },
};
const PING_BODY = {
  required: false,
  description: 'Up to 10 KiB of output (any type); for a failure, its first 1,000 characters are kept with the result.',
  schema: { type: 'string' as const },
};

/**
 * The ping URL of heartbeat monitors (`/ping/{token}`, `/start`, `/fail`, `/{exit_code}`, by GET or POST: whatever a
 * cron line's curl or wget sends) and the rotation of its secret. `/{exit_code}` comes last: `start` and `fail` are
 * matched first.
 */
@ApiTags('monitors')
@Controller()
export class HeartbeatsController {
  constructor(private readonly heartbeats: HeartbeatsService) {}

  private ping(kind: PingKind, token: string, exitCode: number | undefined, request?: Request) {
    return this.heartbeats.ping(token, kind, exitCode ?? null, request ? outputOf(request) : null);
  }

  @Get('ping/:token')
  @Public()
  @ApiOperation({ operationId: 'pingHeartbeat', summary: 'A heartbeat ping: the job succeeded' })
  @ApiOkResponse(PING_OK)
  @ApiProblemResponses(400, 404, 429)
  success(@Param() { token }: PingParams, @Query() query: PingQuery): Promise<PingReceiptDto> {
    return this.ping('success', token, query.exit_code);
  }

  @Post('ping/:token')
  @HttpCode(200)
  @Public()
  @ApiOperation({ operationId: 'postHeartbeatPing', summary: 'A heartbeat ping with output: the job succeeded' })
  @ApiConsumes('text/plain')
  @ApiBody(PING_BODY)
  @ApiOkResponse(PING_OK)
  @ApiProblemResponses(400, 404, 429)
  @ApiResponse(PING_TOO_LARGE)
  successWithOutput(
    @Param() { token }: PingParams,
    @Query() query: PingQuery,
    @Req() request: Request,
  ): Promise<PingReceiptDto> {
    return this.ping('success', token, query.exit_code, request);
  }

  @Get('ping/:token/start')
  @Public()
  @ApiOperation({ operationId: 'pingHeartbeatStart', summary: 'A heartbeat ping: the job started' })
  @ApiOkResponse(PING_OK)
  @ApiProblemResponses(400, 404, 429)
  start(@Param() { token }: PingParams, @Query() query: PingQuery): Promise<PingReceiptDto> {
    return this.ping('start', token, query.exit_code);
  }

  @Post('ping/:token/start')
  @HttpCode(200)
  @Public()
  @ApiOperation({ operationId: 'postHeartbeatStart', summary: 'A heartbeat ping with output: the job started' })
  @ApiConsumes('text/plain')
  @ApiBody(PING_BODY)
  @ApiOkResponse(PING_OK)
  @ApiProblemResponses(400, 404, 429)
  @ApiResponse(PING_TOO_LARGE)
  startWithOutput(
    @Param() { token }: PingParams,
    @Query() query: PingQuery,
    @Req() request: Request,
  ): Promise<PingReceiptDto> {
    return this.ping('start', token, query.exit_code, request);
  }

  @Get('ping/:token/fail')
  @Public()
  @ApiOperation({ operationId: 'pingHeartbeatFailure', summary: 'A heartbeat ping: the job failed' })
  @ApiOkResponse(PING_OK)
  @ApiProblemResponses(400, 404, 429)
  failure(@Param() { token }: PingParams, @Query() query: PingQuery): Promise<PingReceiptDto> {
    return this.ping('fail', token, query.exit_code);
  }

  @Post('ping/:token/fail')
  @HttpCode(200)
  @Public()
  @ApiOperation({ operationId: 'postHeartbeatFailure', summary: 'A heartbeat ping with output: the job failed' })
  @ApiConsumes('text/plain')
  @ApiBody(PING_BODY)
  @ApiOkResponse(PING_OK)
  @ApiProblemResponses(400, 404, 429)
  @ApiResponse(PING_TOO_LARGE)
  failureWithOutput(
    @Param() { token }: PingParams,
    @Query() query: PingQuery,
    @Req() request: Request,
  ): Promise<PingReceiptDto> {
    return this.ping('fail', token, query.exit_code, request);
  }

  @Post('monitors/:id/heartbeat/rotate')
  @HttpCode(200)
  @RequireScopes('monitors:write')
  @ApiOperation({ operationId: 'rotateHeartbeatUrl', summary: 'Give a heartbeat monitor a new ping URL' })
  @ApiOkResponse({ type: MonitorDto, description: 'The monitor with its new `ping_url`.' })
  @ApiProblemResponses(400, 404, 409)
  rotate(@Param() { id }: IdParams, @PublicOrigin() origin: string): Promise<MonitorDto> {
    return this.heartbeats.rotate(id, origin);
  }

  @Get('ping/:token/:exit_code')
  @Public()
  @ApiOperation({
    operationId: 'pingHeartbeatExitCode',
    summary: "A heartbeat ping with the job's exit code: 0 succeeded, anything else failed",
  })
  @ApiOkResponse(PING_OK)
  @ApiProblemResponses(400, 404, 429)
  exitCode(@Param() { token, exit_code: exitCode }: PingExitCodeParams): Promise<PingReceiptDto> {
    return this.ping('success', token, exitCode);
  }

  @Post('ping/:token/:exit_code')
  @HttpCode(200)
  @Public()
  @ApiOperation({
    operationId: 'postHeartbeatExitCode',
    summary: "A heartbeat ping with the job's exit code and output: 0 succeeded, anything else failed",
  })
  @ApiConsumes('text/plain')
  @ApiBody(PING_BODY)
  @ApiOkResponse(PING_OK)
  @ApiProblemResponses(400, 404, 429)
  @ApiResponse(PING_TOO_LARGE)
  exitCodeWithOutput(
    @Param() { token, exit_code: exitCode }: PingExitCodeParams,
    @Req() request: Request,
  ): Promise<PingReceiptDto> {
    return this.ping('success', token, exitCode, request);
  }
}
