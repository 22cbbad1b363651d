import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../common/auth/access.decorators';
import { type Contract, loadContract } from './contract';
import { declarationJsonSchema } from './declaration-schema';

/** Serves openapi.yaml as written, as JSON, and its declaration format as a JSON Schema. */
@ApiExcludeController()
@Controller()
@Public()
export class OpenApiController {
  private readonly contract: Contract = loadContract();
  private readonly declarationSchemaDocument = declarationJsonSchema(this.contract.document);

  @Get('openapi.yaml')
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  yaml(): string {
    return this.contract.yaml;
  }

  @Get('openapi.json')
  json(): Record<string, unknown> {
    return this.contract.document;
  }

  /** The declaration format for editors (a `$schema` or yaml-language-server comment points here). */
  @Get('declaration.schema.json')
  @Header('Content-Type', 'application/schema+json')
  declarationSchema(): Record<string, unknown> {
    return this.declarationSchemaDocument;
  }
}
