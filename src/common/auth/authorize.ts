import { InsufficientScope } from '../errors/domain-errors';
import type { AccessRule } from './access.decorators';
import type { Principal } from './principal';
import { WORKSPACE_ACTS } from './scopes';

/**
 * Throws unless the principal satisfies the route's rule. A 403 always names what is missing. A key is limited by its
 * scopes; a session by the person's role in the workspace (a viewer only reads) or on the instance.
 */
export function authorize(principal: Principal, rule: Exclude<AccessRule, { kind: 'public' }>): void {
  switch (rule.kind) {
    case 'scopes': {
      if (principal.kind === 'session') {
        const write = rule.scopes.find((scope) => scope.endsWith(':write'));
        if (write && principal.workspace?.role === 'viewer') {
          throw new InsufficientScope(
            write,
            `A viewer of this workspace can only read; this needs ${write}, which members and admins hold.`,
          );
        }
        return;
      }
      const missing = rule.scopes.find((scope) => !principal.scopes.includes(scope));
      if (missing) throw new InsufficientScope(missing);
      return;
    }
    case 'session': {
      if (principal.kind !== 'session') {
        throw new InsufficientScope(
          rule.permission,
          `This action needs a signed-in person (${rule.permission}); an API key cannot hold that permission.`,
        );
      }
      if (rule.permission === 'admin' && principal.role !== 'admin') {
        throw new InsufficientScope('admin', 'This action needs an administrator.');
      }
      if (rule.permission === 'workspace:admin' && principal.workspace?.role !== 'admin') {
        throw new InsufficientScope('workspace:admin', 'This needs an admin of the workspace.');
      }
      if (WORKSPACE_ACTS.includes(rule.permission) && principal.workspace?.role === 'viewer') {
        throw new InsufficientScope(
          rule.permission,
          `This needs a member or admin of the workspace (${rule.permission}); a viewer can only read.`,
        );
      }
      return;
    }
    default: {
      const unreachable: never = rule;
      throw new Error(`unknown access rule ${JSON.stringify(unreachable)}`);
    }
  }
}
