import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { loadContract } from '../../src/openapi/contract';

type Json = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
/** Media types whose bodies are bytes: an example of one would say nothing. */
const BINARY = new Set(['image/png', 'application/pdf', 'application/gzip', 'application/octet-stream']);

const encode = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

interface Example {
  /** JSON pointer of the example's owner (a media type, parameter, header or schema). */
  at: string;
  schemaPointer: string;
  value: unknown;
}

/** Every `example` and `examples` in the document, with the pointer of the schema it must satisfy. */
function examplesIn(document: Json): Example[] {
  const found: Example[] = [];
  const walk = (node: unknown, pointer: string, parentKey: string | null): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, `${pointer}/${index}`, null));
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const object = node as Json;
    // A media type, parameter or header: its examples are checked against its `schema`.
    if ('schema' in object && parentKey !== 'properties') {
      const values = [
        ...('example' in object ? [object.example] : []),
        ...Object.values((object.examples ?? {}) as Json).map((example) => (example as Json).value),
      ];
      for (const value of values) found.push({ at: pointer, schemaPointer: `${pointer}/schema`, value });
    }
    // A schema with examples of its own (`examples` is a list there).
    if (parentKey === 'schemas' || parentKey === 'properties' || pointer.endsWith('/schema')) {
      if ('example' in object) found.push({ at: pointer, schemaPointer: pointer, value: object.example });
      if (Array.isArray(object.examples)) {
        for (const value of object.examples) found.push({ at: pointer, schemaPointer: pointer, value });
      }
    }
    for (const [key, value] of Object.entries(object)) {
      if (key === 'example' || key === 'examples') continue;
      walk(value, `${pointer}/${encode(key)}`, key);
    }
  };
  walk(document, '', null);
  return found;
}

describe('openapi.yaml: descriptions and examples', () => {
  const document = loadContract().document as Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi');

  const operations = Object.entries(document.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((method) => (item as Json)[method]).map((method) => ({
      name: `${method.toUpperCase()} ${path}`,
      operation: (item as Json)[method] as Json,
    })),
  );
  const resolve = (node: Json): Json =>
    typeof node.$ref === 'string'
      ? node.$ref
          .slice(2)
          .split('/')
          .reduce<Json>((at, segment) => at[segment.replace(/~1/g, '/').replace(/~0/g, '~')] as Json, document)
      : node;

  it('every example validates against its schema', () => {
    const examples = examplesIn(document);
    expect(examples.length).toBeGreaterThan(100);
    const invalid = examples.flatMap(({ at, schemaPointer, value }) => {
      const validate = ajv.compile({ $ref: `openapi#${schemaPointer}` });
      return validate(value) ? [] : [`${at}: ${ajv.errorsText(validate.errors)}`];
    });
    expect(invalid).toEqual([]);
  });

  it('an example that breaks its schema is caught (the check above can fail)', () => {
    const validate = ajv.compile({ $ref: 'openapi#/components/schemas/CreateMonitorRequest' });
    expect(validate({ name: 'x', url: 'https://example.com/', interval_seconds: 5 })).toBe(false);
  });

  it('every operation has a description', () => {
    expect(operations.filter(({ operation }) => !operation.description).map(({ name }) => name)).toEqual([]);
  });

  it('every JSON request body has an example', () => {
    const missing = operations.filter(({ operation }) => {
      const media = operation.requestBody ? resolve(operation.requestBody as Json).content?.['application/json'] : null;
      return media && media.example === undefined && media.examples === undefined;
    });
    expect(missing.map(({ name }) => name)).toEqual([]);
  });

  it('every success response has an example for each of its media types that is not bytes', () => {
    const missing: string[] = [];
    for (const { name, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        if (!status.startsWith('2')) continue;
        for (const [media, object] of Object.entries((resolve(response as Json).content ?? {}) as Json)) {
          if (BINARY.has(media)) continue;
          if ((object as Json).example === undefined && (object as Json).examples === undefined) {
            missing.push(`${name} ${status} ${media}`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('every operation shows a response example (an error one where its success is bytes only)', () => {
    const hasExample = (response: Json) =>
      Object.values((resolve(response).content ?? {}) as Json).some(
        (media) => (media as Json).example !== undefined || (media as Json).examples !== undefined,
      );
    const missing = operations.filter(
      ({ operation }) => !Object.values(operation.responses as Json).some((response) => hasExample(response as Json)),
    );
    expect(missing.map(({ name }) => name)).toEqual([]);
  });
});
