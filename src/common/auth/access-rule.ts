import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { ACCESS_RULE, type AccessRule } from './access.decorators';

/** The route's declared access rule (method over class). A route without one is a programming error. */
export function accessRuleOf(reflector: Reflector, context: ExecutionContext): AccessRule {
  const rule = reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, [
    context.getHandler(),
    context.getClass(),
  ]);
  if (!rule) {
    throw new Error(`${context.getClass().name}.${context.getHandler().name} declares neither @Public() nor scopes`);
  }
  return rule;
}
