type Json = Record<string, unknown>;

const COMPONENT_REF = '#/components/schemas/';

/**
 * The declaration format as a JSON Schema (draft 2020-12) for editors, taken from the contract's `Declaration` and
 * the schemas it refers to: the schema the API validates with, so a file an editor accepts is one a plan accepts
 * (OpenAPI 3.1 schemas are JSON Schema; only their references move, to `$defs`).
 */
export function declarationJsonSchema(contract: Json): Json {
  const schemas = (contract.components as Json).schemas as Record<string, Json>;
  const needed = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    const ref = (node as Json).$ref;
    if (typeof ref === 'string' && ref.startsWith(COMPONENT_REF)) {
      const name = ref.slice(COMPONENT_REF.length);
      if (!needed.has(name)) {
        needed.add(name);
        visit(schemas[name]);
      }
    }
    Object.values(node).forEach(visit);
  };
  visit(schemas.Declaration);
  const rewritten = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewritten);
    if (typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key]) => key !== 'example' && !key.startsWith('x-'))
        .map(([key, value]) => [
          key,
          key === '$ref' && typeof value === 'string' ? value.replace(COMPONENT_REF, '#/$defs/') : rewritten(value),
        ]),
    );
  };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://vigil.dev/schemas/declaration-v1.json',
    title: 'Vigil declaration',
    ...(rewritten(schemas.Declaration) as Json),
    $defs: Object.fromEntries([...needed].sort().map((name) => [name, rewritten(schemas[name])])),
  };
}
