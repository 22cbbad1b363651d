import { MikroOrmModule } from '@mikro-orm/nestjs';
import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { ormConfig } from './orm.config';

@Module({})
export class DatabaseModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: DatabaseModule,
      // One unit of work per request: the ORM's middleware forks the EntityManager for each request.
      imports: [MikroOrmModule.forRoot({ ...ormConfig(config.databaseUrl), registerRequestContext: true })],
    };
  }
}
