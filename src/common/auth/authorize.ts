import { InsufficientScope } from '../errors/domain-errors';
import type { AccessRule } from './access.decorators';
import type { Principal } from './principal';

/** Throws unless the principal satisfies the route's rule. A 403 always names what is missing. */
export function authorize(principal: Principal, rule: Exclude<AccessRule, { kind: 'public' }>): void {
  switch (rule.kind) {
    case 'scopes': {
      if (principal.kind === 'session') return;
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
      return;
    }
    default: {
      const unreachable: never = rule;
      throw new Error(`unknown access rule ${JSON.stringify(unreachable)}`);
    }
  }
}
