import { Global, Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';
import { MetricsServer } from './metrics-server';
import { MetricsService } from './metrics.service';
import { MetricsTokenGuard } from './metrics-token.guard';

@Global()
@Module({
  controllers: [MetricsController],
  providers: [MetricsService, MetricsTokenGuard, MetricsServer],
  exports: [MetricsService],
})
export class MetricsModule {}
