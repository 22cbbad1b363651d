import { BullModule } from '@nestjs/bull';
import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { runsWorkers, servesHttp } from '../config/roles';
import { QUEUES } from '../queues/jobs';
import { CrawlProcessor } from './crawl.processor';
import { CrawlRunner } from './crawl-runner';
import { CrawlController } from './crawl.controller';
import { CrawlService } from './crawl.service';

@Module({})
export class CrawlModule {
  /** `monitors` is the application's MonitorsModule (the same instance), for creating monitors from a crawl. */
  static forRoot(config: AppConfig, monitors: DynamicModule): DynamicModule {
    return {
      module: CrawlModule,
      imports: [BullModule.registerQueue({ name: QUEUES.crawls }), monitors],
      controllers: servesHttp(config) ? [CrawlController] : [],
      providers: [CrawlService, CrawlRunner, ...(runsWorkers(config) ? [CrawlProcessor] : [])],
    };
  }
}
