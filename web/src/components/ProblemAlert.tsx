import { ProblemError } from '../api';

/** Shows an RFC 9457 problem next to the form or section it concerns. */
export function ProblemAlert({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const problem =
    error instanceof ProblemError
      ? error.problem
      : {
          title: 'Something went wrong',
          detail: error instanceof Error ? error.message : typeof error === 'string' ? error : undefined,
          status: 0,
        };
  const errors = 'errors' in problem && Array.isArray(problem.errors) ? problem.errors : [];
  const requiredScope = 'required_scope' in problem ? problem.required_scope : undefined;
  return (
    <div className="alert alert-danger" role="alert">
      <p className="alert-title">
        {title ?? problem.title}
        {problem.status ? <span className="alert-status"> (HTTP {problem.status})</span> : null}
      </p>
      {problem.detail && problem.detail !== problem.title ? <p>{problem.detail}</p> : null}
      {errors.length > 0 ? (
        <ul>
          {errors.map((item) => (
            <li key={`${item.field}:${item.message}`}>
              <code>{item.field}</code>: {item.message}
            </li>
          ))}
        </ul>
      ) : null}
      {typeof requiredScope === 'string' ? (
        <p>
          Missing permission: <code>{requiredScope}</code>
        </p>
      ) : null}
    </div>
  );
}

/** The message the API gave for one field, if any. */
export function fieldError(error: unknown, ...fields: string[]): string | undefined {
  if (!(error instanceof ProblemError) || !Array.isArray(error.problem.errors)) return undefined;
  const hit = error.problem.errors.find((item) =>
    fields.some((f) => item.field === f || item.field.startsWith(`${f}[`)),
  );
  return hit?.message;
}
