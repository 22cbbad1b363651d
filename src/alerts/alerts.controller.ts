import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ActingPrincipal, RequireScopes } from '../common/auth/access.decorators';
import type { WorkspacePrincipal } from '../common/auth/principal';
import { ApiProblemResponses } from '../common/errors/api-problem-responses';
import { type Page, PageQuery } from '../common/pagination/pagination';
import { IdParams } from '../common/validation/id-params';
import { DeliveriesService } from './deliveries.service';
import { DestinationsService } from './destinations.service';
import {
  AlertDestinationDto,
  AlertDestinationListDto,
  AlertDestinationWithSecretDto,
  AlertRuleDto,
  AlertRuleListDto,
  HeldAlertDto,
  HeldAlertListDto,
  CreateAlertDestinationDto,
  CreateAlertRuleDto,
  DestinationTestResultDto,
  ListDeliveriesQuery,
  RuleParams,
  UpdateAlertDestinationDto,
  UpdateAlertRuleDto,
  WebhookDeliveryDto,
  WebhookDeliveryListDto,
} from './dto/alerts.dto';
import { RulesService } from './rules.service';
import { Idempotent } from '../common/idempotency';

@ApiTags('alerts')
@Controller()
export class AlertsController {
  constructor(
    private readonly destinations: DestinationsService,
    private readonly rules: RulesService,
    private readonly deliveries: DeliveriesService,
  ) {}

  @Get('alert-destinations')
  @RequireScopes('alerts:read')
  @ApiOperation({ operationId: 'listAlertDestinations', summary: "List the workspace's alert destinations" })
  @ApiOkResponse({ type: AlertDestinationListDto, description: 'A page of destinations, oldest first.' })
  @ApiProblemResponses(400)
  listDestinations(@Query() query: PageQuery): Promise<Page<AlertDestinationDto>> {
    return this.destinations.list(query);
  }

  @Post('alert-destinations')
  @Idempotent()
  @RequireScopes('alerts:write')
  @ApiOperation({ operationId: 'createAlertDestination', summary: 'Add an alert destination' })
  @ApiCreatedResponse({ type: AlertDestinationWithSecretDto, description: 'The destination.' })
  @ApiProblemResponses(400, 413)
  createDestination(
    @ActingPrincipal() principal: WorkspacePrincipal,
    @Body() body: CreateAlertDestinationDto,
  ): Promise<AlertDestinationWithSecretDto> {
    return this.destinations.create(principal, body);
  }

  @Get('alert-destinations/:id')
  @RequireScopes('alerts:read')
  @ApiOperation({ operationId: 'getAlertDestination', summary: 'Read an alert destination' })
  @ApiOkResponse({ type: AlertDestinationDto, description: 'The destination.' })
  @ApiProblemResponses(400, 404)
  getDestination(@Param() { id }: IdParams): Promise<AlertDestinationDto> {
    return this.destinations.get(id);
  }

  @Patch('alert-destinations/:id')
  @RequireScopes('alerts:write')
  @ApiOperation({ operationId: 'updateAlertDestination', summary: 'Change an alert destination' })
  @ApiOkResponse({ type: AlertDestinationDto, description: 'The destination as changed.' })
  @ApiProblemResponses(400, 404, 413)
  updateDestination(@Param() { id }: IdParams, @Body() body: UpdateAlertDestinationDto): Promise<AlertDestinationDto> {
    return this.destinations.update(id, body);
  }

  @Delete('alert-destinations/:id')
  @HttpCode(204)
  @RequireScopes('alerts:write')
  @ApiOperation({ operationId: 'deleteAlertDestination', summary: 'Delete an alert destination' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiProblemResponses(400, 404)
  deleteDestination(@Param() { id }: IdParams): Promise<void> {
    return this.destinations.delete(id);
  }

  @Post('alert-destinations/:id/test')
  @HttpCode(200)
  @RequireScopes('alerts:write')
  @ApiOperation({ operationId: 'testAlertDestination', summary: 'Send a ping to a destination now' })
  @ApiOkResponse({ type: DestinationTestResultDto, description: "The receiver's answer (or why there was none)." })
  @ApiProblemResponses(400, 404)
  testDestination(@Param() { id }: IdParams): Promise<DestinationTestResultDto> {
    return this.destinations.test(id);
  }

  @Post('alert-destinations/:id/rotate-secret')
  @HttpCode(200)
  @RequireScopes('alerts:write')
  @ApiOperation({
    operationId: 'rotateAlertDestinationSecret',
    summary: 'Give a webhook destination a new signing secret',
  })
  @ApiOkResponse({ type: AlertDestinationWithSecretDto, description: 'The destination with its new secret.' })
  @ApiProblemResponses(400, 404, 409)
  rotateSecret(@Param() { id }: IdParams): Promise<AlertDestinationWithSecretDto> {
    return this.destinations.rotateSecret(id);
  }

  @Get('monitors/:id/rules')
  @RequireScopes('alerts:read')
  @ApiOperation({ operationId: 'listAlertRules', summary: "List a monitor's alert rules" })
  @ApiOkResponse({ type: AlertRuleListDto, description: 'A page of rules, oldest first.' })
  @ApiProblemResponses(400, 404)
  listRules(@Param() { id }: IdParams, @Query() query: PageQuery): Promise<Page<AlertRuleDto>> {
    return this.rules.list(id, query);
  }

  @Get('monitors/:id/held-alerts')
  @RequireScopes('alerts:read')
  @ApiOperation({ operationId: 'listHeldAlerts', summary: 'Alerts held because this monitor was down, newest first' })
  @ApiOkResponse({ type: HeldAlertListDto, description: 'A page of held alerts, newest first.' })
  @ApiProblemResponses(400, 404)
  listHeldAlerts(@Param() { id }: IdParams, @Query() query: PageQuery): Promise<Page<HeldAlertDto>> {
    return this.rules.heldAlerts(id, query);
  }

  @Post('monitors/:id/rules')
  @Idempotent()
  @RequireScopes('alerts:write')
  @ApiOperation({ operationId: 'createAlertRule', summary: 'Add an alert rule to a monitor' })
  @ApiCreatedResponse({ type: AlertRuleDto, description: 'The new rule.' })
  @ApiProblemResponses(400, 404, 413)
  createRule(@Param() { id }: IdParams, @Body() body: CreateAlertRuleDto): Promise<AlertRuleDto> {
    return this.rules.create(id, body);
  }

  @Patch('monitors/:id/rules/:rule_id')
  @RequireScopes('alerts:write')
  @ApiOperation({ operationId: 'updateAlertRule', summary: 'Change an alert rule' })
  @ApiOkResponse({ type: AlertRuleDto, description: 'The rule as changed.' })
  @ApiProblemResponses(400, 404, 413)
  updateRule(@Param() params: RuleParams, @Body() body: UpdateAlertRuleDto): Promise<AlertRuleDto> {
    return this.rules.update(params.id, params.rule_id, body);
  }
  @Delete('monitors/:id/rules/:rule_id')
  @HttpCode(204)
  @RequireScopes('alerts:write')
  @ApiOperation({ operationId: 'deleteAlertRule', summary: 'Delete an alert rule' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiProblemResponses(400, 404)
  deleteRule(@Param() { id, rule_id }: RuleParams): Promise<void> {
    return this.rules.delete(id, rule_id);
  }

  @Get('webhook-deliveries')
  @RequireScopes('webhooks:read')
  @ApiOperation({ operationId: 'listWebhookDeliveries', summary: 'List deliveries of events to destinations' })
  @ApiOkResponse({ type: WebhookDeliveryListDto, description: 'A page of deliveries.' })
  @ApiProblemResponses(400)
  listDeliveries(@Query() query: ListDeliveriesQuery): Promise<Page<WebhookDeliveryDto>> {
    return this.deliveries.list(query);
  }

  @Get('webhook-deliveries/:id')
  @RequireScopes('webhooks:read')
  @ApiOperation({ operationId: 'getWebhookDelivery', summary: 'Read a delivery with every attempt' })
  @ApiOkResponse({ type: WebhookDeliveryDto, description: 'The delivery.' })
  @ApiProblemResponses(400, 404)
  getDelivery(@Param() { id }: IdParams): Promise<WebhookDeliveryDto> {
    return this.deliveries.get(id);
  }

  @Post('webhook-deliveries/:id/redeliver')
  @Idempotent()
  @HttpCode(202)
  @RequireScopes('webhooks:write')
  @ApiOperation({
    operationId: 'redeliverWebhookDelivery',
    summary: "Send a delivery's event to its destination again",
  })
  @ApiAcceptedResponse({ type: WebhookDeliveryDto, description: 'The new delivery.' })
  @ApiProblemResponses(400, 404)
  redeliver(@Param() { id }: IdParams): Promise<WebhookDeliveryDto> {
    return this.deliveries.redeliver(id);
  }
}
