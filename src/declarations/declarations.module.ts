import { DynamicModule, Module } from '@nestjs/common';
import { DeclarationsController } from './declarations.controller';
import { DeclarationsService } from './declarations.service';

/** Monitoring as code (API processes only): `monitors`, `alerts` and `statusPages` are the application's modules. */
@Module({})
export class DeclarationsModule {
  static forRoot(monitors: DynamicModule, alerts: DynamicModule, statusPages: DynamicModule): DynamicModule {
    return {
      module: DeclarationsModule,
      imports: [monitors, alerts, statusPages],
      controllers: [DeclarationsController],
      providers: [DeclarationsService],
    };
  }
}
