type Json = Record<string, any>;

/** Prose and examples differ freely between the hand-written contract and generated documents. */
const PROSE = new Set(['description', 'summary', 'example', 'examples', 'title', 'externalDocs', 'tags', 'headers']);
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function resolveRef(document: Json, ref: string): Json {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((at: Json, segment) => at?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')], document);
}

/** One canonical form of a schema: refs inlined, prose dropped, 3.0 `nullable` written as a 3.1 type list. */
export function normalizeSchema(document: Json, schema: unknown, depth = 0): unknown {
  if (depth > 40) throw new Error('schema nesting too deep (a recursive schema?)');
  if (Array.isArray(schema)) return schema.map((item) => normalizeSchema(document, item, depth + 1));
  if (typeof schema !== 'object' || schema === null) return schema;
  let node = schema as Json;
  if (typeof node.$ref === 'string') node = resolveRef(document, node.$ref);
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (PROSE.has(key) || key === 'nullable') continue;
    if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as Json).map(([name, property]) => [name, normalizeSchema(document, property, depth + 1)]),
      );
    } else if (key === 'required') {
      if ((value as string[]).length) out.required = [...(value as string[])].sort();
    } else if (key === 'enum') {
      // `null` in a nullable enum is how 3.1 spells what 3.0 says with `nullable`; the type list carries it.
      out.enum = (value as unknown[])
        .filter((item) => item !== null)
        .map(String)
        .sort();
    } else {
      out[key] = normalizeSchema(document, value, depth + 1);
    }
  }
  // `allOf: [X]` (how generators attach a description to a $ref) says no more than X; `allOf` of plain objects
  // (how one schema extends another) says the same as one object with all their properties.
  if (
    Array.isArray(out.allOf) &&
    (out.allOf as Json[]).every((part) => part.type === 'object' || out.allOf.length === 1)
  ) {
    const parts = out.allOf as Json[];
    delete out.allOf;
    for (const part of parts) {
      const { properties, required, ...rest } = part;
      Object.assign(out, rest);
      if (properties) out.properties = { ...(out.properties as Json), ...(properties as Json) };
      if (required)
        out.required = [...new Set([...((out.required as string[]) ?? []), ...(required as string[])])].sort();
    }
  }
  // `oneOf: [X, {type: null}]` is X made nullable.
  if (Array.isArray(out.oneOf) && out.oneOf.length === 2) {
    const nullIndex = (out.oneOf as Json[]).findIndex((part) => part.type === 'null');
    if (nullIndex >= 0) {
      const other = (out.oneOf as Json[])[1 - nullIndex];
      delete out.oneOf;
      Object.assign(out, other);
      out.type = [...new Set([...[other.type].flat(), 'null'])];
    }
  }
  if (node.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  // A nullable `$ref` (3.0 style) leaves `nullable` beside the reference: the referenced object's type holds it.
  if (typeof schema === 'object' && (schema as Json).nullable === true && typeof out.type === 'string') {
    out.type = [out.type, 'null'];
  }
  if (Array.isArray(out.type)) out.type = [...out.type].sort();
  return out;
}

/** Marks every object schema as closed (additionalProperties: false). */
function closeObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeObjects);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Json = Object.fromEntries(
    Object.entries(schema as Json).map(([key, value]) => [key, closeObjects(value)]),
  );
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined)
    out.additionalProperties = false;
  return out;
}

export interface NormalizeOptions {
  /** Request bodies refuse unknown fields (the validation pipe's forbidNonWhitelisted), so say so. */
  closeRequestBodies?: boolean;
  /** Operations answering a document the API also takes (a declaration's export): closed like a request body. */
  closeResponsesOf?: string[];
}

/** Every operation of a document in canonical form, keyed `METHOD /path`. */
export function normalizeOperations(document: Json, options: NormalizeOptions = {}): Record<string, Json> {
  const operations: Record<string, Json> = {};
  const resolve = (node: Json): Json => (typeof node?.$ref === 'string' ? resolveRef(document, node.$ref) : node);
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const method of METHODS) {
      const operation = (item as Json)[method] as Json | undefined;
      if (!operation) continue;
      const parameters = ((operation.parameters ?? []) as Json[]).map(resolve).map((parameter) => ({
        in: parameter.in,
        name: parameter.name,
        required: parameter.required === true,
        schema: normalizeSchema(document, parameter.schema),
      }));
      parameters.sort((a, b) => `${a.in}:${a.name}`.localeCompare(`${b.in}:${b.name}`));
      const content = (body: Json | undefined, close: boolean) =>
        body?.content
          ? Object.fromEntries(
              Object.entries(body.content as Json).map(([mediaType, media]) => {
                const schema = normalizeSchema(document, (media as Json).schema);
                return [mediaType, close ? closeObjects(schema) : schema];
              }),
            )
          : undefined;
      const requestBody = operation.requestBody ? resolve(operation.requestBody) : undefined;
      operations[`${method.toUpperCase()} ${path}`] = {
        operationId: operation.operationId,
        security: ((operation.security ?? []) as Json[])
          .map((requirement) => Object.keys(requirement).join('+'))
          .sort(),
        requiredScopes: operation['x-required-scopes'] ?? null,
        requiredPermission: operation['x-required-permission'] ?? null,
        parameters,
        requestBody: requestBody
          ? {
              required: requestBody.required === true,
              content: content(requestBody, options.closeRequestBodies === true),
            }
          : null,
        responses: Object.fromEntries(
          Object.entries(operation.responses as Json).map(([status, response]) => [
            status,
            content(
              resolve(response as Json),
              status.startsWith('2') && options.closeResponsesOf?.includes(operation.operationId) === true,
            ) ?? null,
          ]),
        ),
      };
    }
  }
  return operations;
}

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? 'nothing' : text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

/** Every place where two values differ, as readable lines. */
export function differences(contract: unknown, code: unknown, at = ''): string[] {
  if (JSON.stringify(contract) === JSON.stringify(code)) return [];
  const isObject = (value: unknown): value is Json =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (isObject(contract) && isObject(code)) {
    const keys = [...new Set([...Object.keys(contract), ...Object.keys(code)])].sort();
    return keys.flatMap((key) => differences(contract[key], code[key], at ? `${at}.${key}` : key));
  }
  if (Array.isArray(contract) && Array.isArray(code) && contract.length === code.length) {
    return contract.flatMap((item, index) => differences(item, code[index], `${at}[${index}]`));
  }
  return [`${at}: openapi.yaml has ${describe(contract)}, the code has ${describe(code)}`];
}
