import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { AppConfig } from '../config/app-config';

/** A heartbeat's ping URL (its token is its credential). */
const PING_PATH = /\/ping\/hb_[A-Za-z0-9_-]+/;

/**
 * JSON logs (pino), one line per request with its request id; credentials never logged. A ping answered 2xx or 3xx
 * is logged at `debug`: a busy service takes thousands a second, and each is recorded as its monitor's check anyway.
 */
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
            customLogLevel: (request, response, error) => {
              if (error || response.statusCode >= 500) return 'error';
              return response.statusCode < 400 && PING_PATH.test(request.url ?? '') ? 'debug' : 'info';
            },
            serializers: {
              req: (request: { id: string; method: string; url: string }) => ({
                id: request.id,
                method: request.method,
                // A ping URL's token is its credential: never in a log line.
                url: request.url.replace(PING_PATH, '/ping/hb_…'),
              }),
            },
          },
        }),
      ],
    };
  }
}
