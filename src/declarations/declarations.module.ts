import { DynamicModule, Module } from '@nestjs/common';
import { DeclarationsController } from './declarations.controller';
import { DeclarationsService } from './declarations.service';

/** The application's modules whose resources a declaration manages. */
interface DeclaredModules {
  monitors: DynamicModule;
  alerts: DynamicModule;
  statusPages: DynamicModule;
  maintenance: DynamicModule;
}

/** Monitoring as code (API processes only). */
@Module({})
export class DeclarationsModule {
  static forRoot(modules: DeclaredModules): DynamicModule {
    return {
      module: DeclarationsModule,
      imports: Object.values(modules),
      controllers: [DeclarationsController],
      providers: [DeclarationsService],
    };
  }
}
