import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { A11yScansModule } from './a11y-scans/a11y-scans.module';
import { AdminModule } from './admin/admin.module';
import { AlertsModule } from './alerts/alerts.module';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { AuthModule } from './auth/auth.module';
import { AuthGuard } from './common/auth/auth.guard';
import { BackgroundModule } from './common/background/background.module';
import { IdempotencyModule } from './common/idempotency';
import { LinkHeaderInterceptor } from './common/pagination/link-header.interceptor';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import type { AppConfig } from './config/app-config';
import { servesHttp } from './config/roles';
import { ArtifactsModule } from './artifacts/artifacts.module';
import { ReleaseChecksModule } from './release-checks/release-checks.module';
import { MonitorsModule } from './monitors/monitors.module';
import { ChangesModule } from './changes/changes.module';
import { CrawlModule } from './crawl/crawl.module';
import { ReportsModule } from './reports/reports.module';
import { StatusPagesModule } from './status-pages/status-pages.module';
import { MaintenanceModule } from './maintenance/maintenance.module';
import { DeclarationsModule } from './declarations/declarations.module';
import { ExportModule } from './export/export.module';
import { DownloadsModule } from './downloads/downloads.module';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './db/database.module';
import { HealthModule } from './health/health.module';
import { LoggingModule } from './logging/logging.module';
import { MetricsModule } from './metrics/metrics.module';
import { OpenApiModule } from './openapi/openapi.module';
import { QueuesModule } from './queues/queues.module';
import { RedisModule } from './redis/redis.module';
import { UsageModule } from './usage/usage.module';
import { UsersModule } from './users/users.module';
import { WorkspacesModule } from './workspaces/workspaces.module';

@Module({})
export class AppModule {
  /** The parts a process runs follow its ROLE: api (HTTP), worker (queue processors), scheduler, or all. */
  static forRoot(config: AppConfig): DynamicModule {
    const monitors = MonitorsModule.forRoot(config);
    const alerts = AlertsModule.forRoot(config);
    const statusPages = StatusPagesModule.forRoot(config, monitors, alerts);
    const maintenance = MaintenanceModule.forRoot(config);
    const infrastructure = [
      ConfigModule.forRoot(config),
      LoggingModule.forRoot(config),
      DatabaseModule.forRoot(config),
      RedisModule,
      BackgroundModule,
      QueuesModule.forRoot(config),
      UsageModule,
      MetricsModule,
      ArtifactsModule.forRoot(config),
      ReleaseChecksModule.forRoot(config),
      monitors,
      A11yScansModule.forRoot(config),
      CrawlModule.forRoot(config, monitors),
      statusPages,
      maintenance,
      ReportsModule.forRoot(config, monitors),
      alerts,
    ];
    if (!servesHttp(config)) return { module: AppModule, imports: infrastructure };
    return {
      module: AppModule,
      imports: [
        ...infrastructure,
        RateLimitModule,
        IdempotencyModule,
        HealthModule,
        OpenApiModule,
        AuthModule,
        UsersModule,
        WorkspacesModule,
        ApiKeysModule,
        AdminModule,
        ChangesModule,
        ExportModule,
        DownloadsModule,
        DeclarationsModule.forRoot({ monitors, alerts, statusPages, maintenance }),
      ],
      providers: [
        // Who is calling, whether their bucket allows another request, where they act and whether they may.
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_INTERCEPTOR, useClass: LinkHeaderInterceptor },
      ],
    };
  }
}
