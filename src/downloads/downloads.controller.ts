import { Controller, Get, Header, Headers, Res, StreamableFile } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../common/auth/access.decorators';
import { ApiProblemResponses } from '../common/errors/api-problem-responses';
import { GateClientPackage } from './gate-client-package';

/** Files for integrators, at the service's root (outside /api/v1): `npx <origin>/downloads/vigil-gate.tgz`. */
@ApiTags('release-checks')
@Controller('downloads')
@Public()
export class DownloadsController {
  constructor(private readonly gateClient: GateClientPackage) {}

  @Get('vigil-gate.tgz')
  // Always revalidated, so a CI job gets the client of the service it talks to, never a cached older one.
  @Header('Cache-Control', 'public, no-cache')
  @Header('X-Content-Type-Options', 'nosniff')
  @ApiOperation({ operationId: 'downloadGateClient', summary: 'The CI gate client as an npm package' })
  @ApiHeader({ name: 'If-None-Match', required: false, schema: { type: 'string' } })
  @ApiOkResponse({
    description: 'The package.',
    content: { 'application/gzip': { schema: { type: 'string', contentMediaType: 'application/gzip' } as object } },
  })
  @ApiResponse({ status: 304, description: 'Not modified.' })
  @ApiProblemResponses(404)
  async gateClientPackage(
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StreamableFile | undefined> {
    const file = await this.gateClient.current();
    response.setHeader('ETag', file.etag);
    if (matchesEtag(ifNoneMatch, file.etag)) {
      response.status(304);
      return undefined;
    }
    return new StreamableFile(file.body, {
      type: 'application/gzip',
      disposition: 'attachment; filename="vigil-gate.tgz"',
      length: file.body.length,
    });
  }
}

/**
 * If-None-Match's weak comparison (RFC 9110 13.1.2): `*`, or any listed tag with the same opaque value. Not express's
 * `req.fresh`, which ignores the condition when the request also says `Cache-Control: no-cache`, as fetch() does.
 */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string): string => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}
