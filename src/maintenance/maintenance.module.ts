import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { runsScheduler, servesHttp } from '../config/roles';
import { PublicStatusCache } from '../status-pages/public-status-cache';
import { MaintenanceAnnouncer } from './maintenance-announcer';
import { MaintenanceWindowsController } from './maintenance-windows.controller';
import { MaintenanceWindowsService } from './maintenance-windows.service';

@Module({})
export class MaintenanceModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: MaintenanceModule,
      controllers: servesHttp(config) ? [MaintenanceWindowsController] : [],
      providers: [
        PublicStatusCache,
        ...(servesHttp(config) ? [MaintenanceWindowsService] : []),
        ...(runsScheduler(config) ? [MaintenanceAnnouncer] : []),
      ],
      exports: servesHttp(config) ? [MaintenanceWindowsService] : [],
    };
  }
}
