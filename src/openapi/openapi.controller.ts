import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../common/auth/access.decorators';
import { type Contract, loadContract } from './contract';

/** Serves openapi.yaml as written, and as JSON. */
@ApiExcludeController()
@Controller()
@Public()
export class OpenApiController {
  private readonly contract: Contract = loadContract();

  @Get('openapi.yaml')
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  yaml(): string {
    return this.contract.yaml;
  }

  @Get('openapi.json')
  json(): Record<string, unknown> {
    return this.contract.document;
  }
}
