import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { createHttpApp } from '../../src/http/http-app';
import { testConfig } from '../support/test-app';
import { loadContract } from '../../src/openapi/contract';
import { differences, normalizeOperations } from '../support/openapi-diff';

describe('openapi.yaml and the running app', () => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await createHttpApp(testConfig({ ROLE: 'api' }));
  });
  afterAll(() => app.close());

  it('describe the same operations, parameters, bodies, statuses and schemas', () => {
    const generated = SwaggerModule.createDocument(app, new DocumentBuilder().build(), { ignoreGlobalPrefix: true });
    const fromCode = normalizeOperations(generated, { closeRequestBodies: true });
    const fromContract = normalizeOperations(loadContract().document);
    expect(differences(fromContract, fromCode)).toEqual([]);
  });
});
