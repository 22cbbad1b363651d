import { Controller, Get, Header, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { stringify } from 'yaml';
import { ActingPrincipal, RequireScopes } from '../common/auth/access.decorators';
import type { WorkspacePrincipal } from '../common/auth/principal';
import { ApiProblemResponses } from '../common/errors/api-problem-responses';
import { NotFound } from '../common/errors/domain-errors';
import { IdParams } from '../common/validation/id-params';
import { ApiDeclarationOperation, DeclarationRequest } from './declaration-request';
import { DeclarationsService } from './declarations.service';
import {
  DeclarationApplyRequestDto,
  DeclarationDto,
  DeclarationPlanDto,
  DeclarationPlanRequestDto,
} from './dto/declaration.dto';

/** A workspace declared as code: its export, a plan of a document against it, and that plan applied. */
@ApiTags('declarations')
@Controller('workspaces/:id/declaration')
export class DeclarationsController {
  constructor(private readonly declarations: DeclarationsService) {}

  /** The path names the workspace the caller acts in; another one is not found, whoever owns it. */
  private static acting(id: string, principal: WorkspacePrincipal): void {
    if (principal.workspace.id !== id.toLowerCase()) throw new NotFound('Workspace');
  }

  @Get()
  @RequireScopes('monitors:read', 'alerts:read')
  @Header('Vary', 'Accept')
  @ApiOperation({
    operationId: 'exportDeclaration',
    summary: "The workspace's monitors, rules, destinations and status pages as a declaration",
  })
  @ApiProduces('application/json', 'application/yaml')
  @ApiOkResponse({ type: DeclarationDto, description: 'The declaration; YAML when asked for with `Accept`.' })
  @ApiProblemResponses(400, 404)
  async export(
    @Param() { id }: IdParams,
    @ActingPrincipal() principal: WorkspacePrincipal,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<Record<string, unknown> | string> {
    DeclarationsController.acting(id, principal);
    const document = await this.declarations.export();
    if (request.accepts(['application/json', 'application/yaml']) !== 'application/yaml') return document;
    response.type('application/yaml');
    return stringify(document);
  }

  @Post('plan')
  @HttpCode(200)
  @RequireScopes('monitors:read', 'alerts:read')
  @ApiDeclarationOperation(
    { operationId: 'planDeclaration', summary: 'What applying a declaration would change' },
    DeclarationPlanRequestDto,
    { fingerprint: false },
  )
  @ApiOkResponse({ type: DeclarationPlanDto, description: 'The plan, with the fingerprint `apply` takes.' })
  @ApiProblemResponses(400, 404, 413)
  plan(
    @Param() { id }: IdParams,
    @ActingPrincipal() principal: WorkspacePrincipal,
    @DeclarationRequest() body: DeclarationPlanRequestDto,
  ): Promise<DeclarationPlanDto> {
    DeclarationsController.acting(id, principal);
    return this.declarations.plan(body);
  }

  @Post('apply')
  @HttpCode(200)
  @RequireScopes('monitors:write', 'alerts:write')
  @ApiDeclarationOperation(
    { operationId: 'applyDeclaration', summary: 'Apply a reviewed plan, all or nothing' },
    DeclarationApplyRequestDto,
    { fingerprint: true },
  )
  @ApiOkResponse({
    type: DeclarationPlanDto,
    description: 'The changes made, and the fingerprint of the workspace now.',
  })
  @ApiProblemResponses(400, 404, 409, 413)
  apply(
    @Param() { id }: IdParams,
    @ActingPrincipal() principal: WorkspacePrincipal,
    @DeclarationRequest() body: DeclarationApplyRequestDto,
  ): Promise<DeclarationPlanDto> {
    DeclarationsController.acting(id, principal);
    return this.declarations.apply(principal, body);
  }
}
