import { Module } from '@nestjs/common';
import { CaptureEngineProvider } from './capture-engine.provider';

/** The process's browser, shared by release-check captures and browser-mode monitor checks. */
@Module({
  providers: [CaptureEngineProvider],
  exports: [CaptureEngineProvider],
})
export class CaptureModule {}
