// The declaration format as JSON Schema. build-package.mjs replaces this module in the package with the schema
// itself, made from openapi.yaml at build time, so `vigil validate` works offline; run from source, it is made from
// the checkout's openapi.yaml, the same way.
import { loadContract } from '../../../src/openapi/contract';
import { declarationJsonSchema } from '../../../src/openapi/declaration-schema';

let schema: Record<string, unknown> | undefined;

export function declarationSchema(): Record<string, unknown> {
  schema ??= declarationJsonSchema(loadContract().document);
  return schema;
}
