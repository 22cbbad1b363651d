import { Global, Module } from '@nestjs/common';
import { UptimeReader } from '../monitors/uptime-reader';
import { UsageService } from './usage.service';

@Global()
// The uptime reader is stateless; usage counts checks through it like every other reader of the rollups.
@Module({ providers: [UsageService, UptimeReader], exports: [UsageService] })
export class UsageModule {}
