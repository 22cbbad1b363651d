import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { PathSegments } from './document-path';

/** A place in the document and what is wrong there. */
export interface SchemaError {
  path: PathSegments;
  message: string;
}

/** At most this many errors are reported: enough to fix a file, not a flood (as the service does). */
const MAX_ERRORS = 100;

/** A validator of documents against the declaration JSON Schema (draft 2020-12, as the contract's schemas). */
export function declarationValidator(schema: Record<string, unknown>): (document: unknown) => SchemaError[] {
  // Not strict: the schema is the service's, and a keyword this client does not know must not stop a check.
  // `verbose` gives each error its schema: a failed `oneOf` then says which branches it had.
  const ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true });
  addFormats(ajv);
  const validate: ValidateFunction = ajv.compile(schema);
  return (document) => (validate(document) ? [] : schemaErrors(document, validate.errors ?? []));
}

/** Ajv's errors as document paths and short messages, one per problem. */
export function schemaErrors(document: unknown, errors: ErrorObject[]): SchemaError[] {
  const shown = errors.filter(
    (error) => !errors.some((choice) => isChoice(choice) && losingBranch(error, choice, errors)),
  );
  const out = new Map<string, SchemaError>();
  for (const error of shown) {
    // A failed `oneOf`/`anyOf` is explained by its closest branch's errors underneath; alone, it says nothing new.
    if (isChoice(error) && shown.some((other) => other !== error && under(other, error))) continue;
    const entry = describe(error, pointerSegments(document, error.instancePath));
    const id = `${JSON.stringify(entry.path)} ${entry.message}`;
    if (!out.has(id)) out.set(id, entry);
  }
  return [...out.values()].slice(0, MAX_ERRORS);
}

function isChoice(error: ErrorObject): boolean {
  return error.keyword === 'oneOf' || error.keyword === 'anyOf';
}

/** Whether `error` is at or under the value `parent` is about. */
function under(error: ErrorObject, parent: ErrorObject): boolean {
  return error.instancePath === parent.instancePath || error.instancePath.startsWith(`${parent.instancePath}/`);
}

/**
 * Which branch of a failed `oneOf`/`anyOf` an error comes from (its index), or -1: branches are `$ref`s (their
 * errors' schema paths start with the reference) or inline (under the keyword's own path).
 */
function branchOf(error: ErrorObject, choice: ErrorObject): number {
  if (error === choice || !under(error, choice)) return -1;
  const branches = Array.isArray(choice.schema) ? (choice.schema as unknown[]) : [];
  return branches.findIndex((branch, index) => {
    const ref = typeof branch === 'object' && branch !== null ? (branch as { $ref?: unknown }).$ref : undefined;
    const root = typeof ref === 'string' ? ref : `${choice.schemaPath}/${index}`;
    return error.schemaPath === root || error.schemaPath.startsWith(`${root}/`);
  });
}

/** An error of a branch other than the closest one (the one with the fewest errors): noise to leave out. */
function losingBranch(error: ErrorObject, choice: ErrorObject, errors: ErrorObject[]): boolean {
  const branch = branchOf(error, choice);
  if (branch < 0) return false;
  const counts = new Map<number, number>();
  for (const other of errors) {
    const at = branchOf(other, choice);
    if (at >= 0) counts.set(at, (counts.get(at) ?? 0) + 1);
  }
  const [closest] = [...counts.entries()].sort(([a, countA], [b, countB]) => countA - countB || a - b)[0];
  return branch !== closest;
}

function describe(error: ErrorObject, path: (string | number)[]): SchemaError {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { path: [...path, String(params.missingProperty)], message: 'is required' };
    case 'additionalProperties':
      return { path: [...path, String(params.additionalProperty)], message: 'is not a field of this format' };
    case 'enum':
      return {
        path,
        message: `must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`,
      };
    default:
      return { path, message: error.message ?? `fails ${error.keyword}` };
  }
}

/** The segments of a JSON pointer, array indexes as numbers (they print as `[0]`). */
function pointerSegments(document: unknown, pointer: string): (string | number)[] {
  if (!pointer) return [];
  const segments: (string | number)[] = [];
  let at: unknown = document;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(at)) {
      segments.push(Number(key));
      at = at[Number(key)];
    } else {
      segments.push(key);
      at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined;
    }
  }
  return segments;
}
