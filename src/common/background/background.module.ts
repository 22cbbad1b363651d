import { Global, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { BackgroundPasses } from './background-passes';

/** The background passes every role runs (BackgroundPasses), on the SchedulerRegistry's intervals. */
@Global()
@Module({
  imports: [ScheduleModule.forRoot()],
  providers: [BackgroundPasses],
  exports: [BackgroundPasses],
})
export class BackgroundModule {}
