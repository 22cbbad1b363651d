import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { runsScheduler } from '../config/roles';
import { ArtifactRetention } from './artifact-retention';
import { ArtifactStore, LocalArtifactStore } from './artifact-store';
import { S3ArtifactStore } from './s3-artifact-store';

/**
 * The artifact store for every module (a local directory, or S3 when workers and API instances run on several machines);
 * the scheduler role also deletes artifacts past their retention.
 */
@Global()
@Module({})
export class ArtifactsModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ArtifactsModule,
      providers: [
        {
          provide: ArtifactStore,
          inject: [APP_CONFIG],
          useFactory: ({ artifactStore, artifactDir }: AppConfig) =>
            artifactStore.kind === 's3' ? new S3ArtifactStore(artifactStore) : new LocalArtifactStore(artifactDir),
        },
        ...(runsScheduler(config) ? [ArtifactRetention] : []),
      ],
      exports: [ArtifactStore],
    };
  }
}
