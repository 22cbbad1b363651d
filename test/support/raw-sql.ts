import { readFileSync } from 'node:fs';
import * as ts from 'typescript';

/** One raw SQL statement in the source: where it is, its text (expressions as `${…}`), and how it is scoped. */
export interface RawStatement {
  file: string;
  line: number;
  sql: string;
  /** Tables it reads or writes (after from, join, into, update), lower-case. */
  tables: string[];
  /** It restricts itself with `inWorkspace(…)` (src/common/tenancy/workspace-scope.ts). */
  scoped: boolean;
}

const TABLE_REFERENCE = /\b(?:from|join|into|update)\s+(?:only\s+)?"?([a-z_][a-z0-9_]*)"?/gi;

/**
 * Every `….execute(sql, …)` call in a TypeScript source whose first argument is SQL text: a string, a template, or
 * a constant of the same file holding one. Query-builder `.execute()` calls (no argument) are not raw SQL.
 */
export function rawStatements(file: string, source = readFileSync(file, 'utf8')): RawStatement[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const constants = new Map<string, ts.Expression>();
  const statements: RawStatement[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      constants.set(node.name.text, node.initializer);
    }
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'execute' &&
      node.arguments.length > 0
    ) {
      let argument: ts.Expression = node.arguments[0];
      if (ts.isIdentifier(argument) && constants.has(argument.text)) argument = constants.get(argument.text)!;
      const sql = sqlText(argument);
      if (sql !== null) {
        statements.push({
          file,
          line: tree.getLineAndCharacterOfPosition(node.getStart()).line + 1,
          sql,
          tables: [...sql.matchAll(TABLE_REFERENCE)].map((match) => match[1].toLowerCase()),
          scoped: /\$\{inWorkspace\(/.test(sql),
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return statements;
}

function sqlText(node: ts.Expression): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    return (
      node.head.text + node.templateSpans.map((span) => `\${${span.expression.getText()}}${span.literal.text}`).join('')
    );
  }
  return null;
}
