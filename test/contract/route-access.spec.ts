import type { INestApplication } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { ACCESS_RULE } from '../../src/common/auth/access.decorators';
import { createHttpApp } from '../../src/http/http-app';
import { testConfig } from '../support/test-app';

interface Route {
  name: string;
  hasRule: boolean;
}

function routesOf(app: INestApplication): Route[] {
  const routes: Route[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | undefined;
      if (!controller) continue;
      const classRule = Reflect.getMetadata(ACCESS_RULE, controller) as unknown;
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        routes.push({
          name: `${controller.name}.${name}`,
          hasRule: Reflect.getMetadata(ACCESS_RULE, handler) !== undefined || classRule !== undefined,
        });
      }
    }
  }
  return routes;
}

describe('every route declares who may call it', () => {
  it('each route has @RequireScopes, @RequireSession or @Public', async () => {
    const app = await createHttpApp(testConfig({ ROLE: 'api' }));
    try {
      const routes = routesOf(app);
      expect(routes.length).toBeGreaterThan(10);
      expect(routes.filter((route) => !route.hasRule).map((route) => route.name)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
