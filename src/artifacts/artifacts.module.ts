import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ArtifactStore, LocalArtifactStore } from './artifact-store';

@Global()
@Module({
  providers: [
    {
      provide: ArtifactStore,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new LocalArtifactStore(config.artifactDir),
    },
  ],
  exports: [ArtifactStore],
})
export class ArtifactsModule {}
