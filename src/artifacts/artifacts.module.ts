import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { runsScheduler } from '../config/roles';
import { ArtifactRetention } from './artifact-retention';
import { ArtifactStore, LocalArtifactStore } from './artifact-store';

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
          useFactory: ({ artifactStore, artifactDir }: AppConfig): ArtifactStore => {
            if (artifactStore.kind !== 's3') return new LocalArtifactStore(artifactDir);
            // The AWS SDK loads only where it is used (about 130 ms of CPU at every start otherwise).
            // eslint-disable-next-line @typescript-eslint/no-require-imports
            const { S3ArtifactStore } = require('./s3-artifact-store') as typeof import('./s3-artifact-store');
            return new S3ArtifactStore(artifactStore);
          },
        },
        ...(runsScheduler(config) ? [ArtifactRetention] : []),
      ],
      exports: [ArtifactStore],
    };
  }
}
