import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROBLEM_CODES } from '../../src/common/errors/domain-errors';
import { loadContract } from '../../src/openapi/contract';

type Json = Record<string, any>;

const SRC = join(__dirname, '..', '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/**
 * Every code the source raises: `new DomainError('code', …)`, a DomainError subclass's `super('code', …)`,
 * `problem('code', …)` and the framework-exception map's `[HttpStatus.X]: 'code'`.
 */
function raisedCodes(): Set<string> {
  const raising = [
    /new DomainError\(\s*'([a-z_]+)'/g,
    /\bsuper\(\s*'([a-z_]+)'/g,
    /\bproblem\(\s*'([a-z_]+)'/g,
    /\[HttpStatus\.[A-Z_]+\]: '([a-z_]+)'/g,
  ];
  const codes = new Set<string>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of raising) for (const match of text.matchAll(pattern)) codes.add(match[1]);
  }
  return codes;
}

describe('problem codes: openapi.yaml names exactly the codes the service sends', () => {
  const schemas = (loadContract().document as Json).components.schemas as Json;
  const contractCodes = new Set<string>(schemas.ProblemCode.enum as string[]);
  const registered = new Set(Object.keys(PROBLEM_CODES));
  const raised = raisedCodes();

  it('Problem.code is the ProblemCode enum', () => {
    expect(schemas.Problem.properties.code).toEqual({ $ref: '#/components/schemas/ProblemCode' });
    expect(raised.size).toBeGreaterThan(20);
  });

  it('every code raised in the source is in the enum', () => {
    expect([...raised].filter((code) => !contractCodes.has(code)).sort()).toEqual([]);
  });

  it('every code in the enum is raised somewhere in the source', () => {
    expect([...contractCodes].filter((code) => !raised.has(code)).sort()).toEqual([]);
  });

  it('the registry (PROBLEM_CODES) holds exactly the enum', () => {
    expect([...registered].sort()).toEqual([...contractCodes].sort());
  });

  it('a 400 always lists errors, a 403 always names required_scope', () => {
    const requiredOf = (name: string) =>
      (schemas[name].allOf as Json[]).flatMap((part) => (part.required as string[] | undefined) ?? []);
    expect(requiredOf('ValidationProblem')).toContain('errors');
    expect(requiredOf('ForbiddenProblem')).toContain('required_scope');
    const responses = (loadContract().document as Json).components.responses as Json;
    expect(responses.BadRequest.content['application/problem+json'].schema.$ref).toBe(
      '#/components/schemas/ValidationProblem',
    );
    expect(responses.Forbidden.content['application/problem+json'].schema.$ref).toBe(
      '#/components/schemas/ForbiddenProblem',
    );
  });
});
