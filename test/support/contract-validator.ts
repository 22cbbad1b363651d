import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { loadContract } from '../../src/openapi/contract';

type Json = Record<string, unknown>;

interface Operation {
  template: string;
  pattern: RegExp;
  method: string;
  responses: Json;
}

/** Paths served outside the public contract on purpose (operations endpoints, the contract itself, docs). */
const OUTSIDE_CONTRACT = [/^\/health(\/ready)?$/, /^\/metrics$/, /^\/docs/, /^\/api\/v1\/openapi\.(yaml|json)$/];

/** Checks that real responses are what openapi.yaml promises: documented status, content type and body schema. */
export class ContractValidator {
  private readonly document: Json;
  private readonly operations: Operation[] = [];
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly compiled = new Map<string, ReturnType<Ajv2020['compile']>>();

  constructor() {
    this.document = loadContract().document;
    addFormats(this.ajv);
    this.ajv.addSchema(this.document, 'openapi');
    const paths = this.document.paths as Record<string, Record<string, Json>>;
    for (const [template, item] of Object.entries(paths)) {
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      for (const [method, operation] of Object.entries(item)) {
        this.operations.push({
          template,
          pattern,
          method: method.toUpperCase(),
          responses: operation.responses as Json,
        });
      }
    }
  }

  private resolve(node: Json): Json {
    const ref = node.$ref;
    if (typeof ref !== 'string') return node;
    return ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<Json>((at, segment) => at[segment.replace(/~1/g, '/').replace(/~0/g, '~')] as Json, this.document);
  }

  private validatorFor(pointer: string): ReturnType<Ajv2020['compile']> {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `openapi#${pointer}` });
      this.compiled.set(pointer, validate);
    }
    return validate;
  }

  /**
   * Throws with a readable reason when the response breaks the contract: an undocumented status, another content
   * type, a body its schema refuses, or (given the headers) a header documented as `required` that is missing.
   */
  assertResponse(
    method: string,
    requestPath: string,
    status: number,
    contentType: string | null,
    body: unknown,
    headers?: Headers,
  ): void {
    const path = requestPath.split('?')[0].replace(/^\/api(\/v1)?(?=\/)/, '');
    const fullPath = requestPath.split('?')[0];
    if (OUTSIDE_CONTRACT.some((pattern) => pattern.test(fullPath))) return;
    const where = `${method} ${fullPath} → ${status}`;
    const operation = this.operations.find((op) => op.method === method && op.pattern.test(path));
    const mediaType = (contentType ?? '').split(';')[0].trim();
    const encodedTemplate = (template: string): string => template.replace(/~/g, '~0').replace(/\//g, '~1');

    if (!operation) {
      // No documented operation: only a problem answer (unknown route, wrong method) is acceptable.
      if (status < 400 || mediaType !== 'application/problem+json') {
        throw new Error(`${where}: no operation in openapi.yaml matches this request`);
      }
      this.check(this.validatorFor('/components/schemas/Problem'), body, where);
      return;
    }
    const documented = operation.responses[String(status)] as Json | undefined;
    if (!documented)
      throw new Error(`${where}: status ${status} is not documented for ${operation.method} ${operation.template}`);
    const response = this.resolve(documented);
    if (headers) {
      for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
        if (this.resolve(header).required === true && !headers.has(name)) {
          throw new Error(`${where}: the documented header ${name} is missing`);
        }
      }
    }
    const content = response.content as Record<string, Json> | undefined;
    if (!content) {
      if (body !== undefined && body !== '') throw new Error(`${where}: documented without a body, but got one`);
      return;
    }
    if (!content[mediaType]) {
      throw new Error(
        `${where}: content type ${mediaType || '(none)'} is not one of ${Object.keys(content).join(', ')}`,
      );
    }
    const pointer =
      typeof documented.$ref === 'string'
        ? `${documented.$ref.replace(/^#/, '')}/content/${encodedTemplate(mediaType)}/schema`
        : `/paths/${encodedTemplate(operation.template)}/${operation.method.toLowerCase()}/responses/${status}/content/${encodedTemplate(mediaType)}/schema`;
    this.check(this.validatorFor(pointer), body, where);
  }

  /** Throws with a readable reason when an event is not what openapi.yaml's `webhooks` promise receivers of its type. */
  assertEvent(event: { id: string; type: string; [field: string]: unknown }): void {
    const webhooks = (this.document.webhooks ?? {}) as Record<string, unknown>;
    const where = `event ${event.type} ${event.id}`;
    if (!(event.type in webhooks)) throw new Error(`${where}: openapi.yaml has no webhook for this type`);
    const pointer = `/webhooks/${event.type.replace(/~/g, '~0').replace(/\//g, '~1')}/post/requestBody/content/application~1json/schema`;
    this.check(this.validatorFor(pointer), event, where);
  }

  private check(validate: ReturnType<Ajv2020['compile']>, body: unknown, where: string): void {
    if (!validate(body)) {
      throw new Error(
        `${where}: body breaks openapi.yaml: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(body, null, 2).slice(0, 2000)}`,
      );
    }
  }
}

let shared: ContractValidator | undefined;
export function contractValidator(): ContractValidator {
  shared ??= new ContractValidator();
  return shared;
}
