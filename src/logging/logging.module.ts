import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { AppConfig } from '../config/app-config';

/** JSON logs (pino), one line per request with its request id; credentials never logged. */
@Module({})
export class LoggingModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.logLevel,
            genReqId: (request: IncomingMessage) => (request as IncomingMessage & { id?: string }).id ?? randomUUID(),
            redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
            customProps: () => ({ role: config.role }),
            serializers: {
              req: (request: { id: string; method: string; url: string }) => ({
                id: request.id,
                method: request.method,
                // A ping URL's token is its credential: never in a log line.
                url: request.url.replace(/\/ping\/hb_[A-Za-z0-9_-]+/, '/ping/hb_…'),
              }),
            },
          },
        }),
      ],
    };
  }
}
