import { DynamicModule, Module } from '@nestjs/common';
import { credentialBoxProvider } from '../common/secrets/credential-box';
import type { AppConfig } from '../config/app-config';
import { servesHttp } from '../config/roles';
import { CodeHostSender } from './code-host-sender';
import { CodeHostsController } from './code-hosts.controller';
import { CodeHostsService } from './code-hosts.service';

/**
 * Connections to GitHub and GitLab (managed by a workspace's admins), and the sender that reports release checks to
 * them: the alerts module's delivery machinery calls it for deliveries to a connection.
 */
@Module({})
export class CodeHostsModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CodeHostsModule,
      controllers: servesHttp(config) ? [CodeHostsController] : [],
      providers: [credentialBoxProvider, CodeHostSender, CodeHostsService],
      exports: [CodeHostSender],
    };
  }
}
