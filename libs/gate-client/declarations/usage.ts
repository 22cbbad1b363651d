import { SERVICE_USAGE } from './command-line';

export const VALIDATE_USAGE = `usage: vigil validate FILE
  Checks a declaration (YAML or JSON) against the format, offline; prints each error with its path and line.
  exit codes: 0 valid; 1 invalid; 4 usage error.`;

export const PLAN_USAGE = `usage: vigil plan FILE [--prune] [--json] [--out PLAN.json] --base-url URL [--api-key KEY] [--workspace ID]
  Shows what applying FILE would change. \${NAME} references in its values are taken from the environment.
  --prune                   also delete the managed resources FILE no longer names (never unmanaged ones)
  --json                    print the plan as JSON instead of the diff
  --out PLAN.json           save the plan, for \`vigil apply FILE --plan PLAN.json\`
${SERVICE_USAGE}
  exit codes: 0 no changes; 2 changes; 1 error; 4 usage error (or a variable FILE refers to is not set).`;

export const APPLY_USAGE = `usage: vigil apply FILE [--prune] [--yes] [--plan PLAN.json] --base-url URL [--api-key KEY] [--workspace ID]
  Plans, shows the diff, asks for confirmation, then applies that plan, all or nothing.
  --prune                   also delete the managed resources FILE no longer names (never unmanaged ones)
  --yes                     apply without asking (required without a terminal)
  --plan PLAN.json          apply a plan saved by \`vigil plan --out\` instead of planning again; refused if the
                            workspace or FILE changed since
${SERVICE_USAGE}
  exit codes: 0 applied (or nothing to change); 1 error, refused or not confirmed; 4 usage error.`;

export const EXPORT_USAGE = `usage: vigil export [--yaml|--json] [--out FILE] --base-url URL [--api-key KEY] [--workspace ID]
  Prints the workspace as a declaration (YAML by default); secrets are \${ENV} placeholders.
  --out FILE                write it to FILE instead of standard output
${SERVICE_USAGE}
  exit codes: 0 exported; 1 error; 4 usage error.`;

export const VIGIL_USAGE = `usage: vigil COMMAND [ARGS]
  validate FILE            check a declaration offline
  plan FILE                show what applying a declaration would change
  apply FILE               apply a declaration after confirmation
  export                   print the workspace as a declaration
  gate ARGS                the CI release gate (the same as vigil-gate ARGS)
\`vigil COMMAND --help\` describes a command.`;
