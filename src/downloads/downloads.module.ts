import { Module } from '@nestjs/common';
import { DownloadsController } from './downloads.controller';
import { GateClientPackage } from './gate-client-package';

@Module({ controllers: [DownloadsController], providers: [GateClientPackage] })
export class DownloadsModule {}
