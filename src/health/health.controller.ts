import { MikroORM } from '@mikro-orm/postgresql';
import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../common/auth/access.decorators';
import { RedisService } from '../redis/redis.module';

type CheckState = 'up' | 'down';

async function probe(work: () => Promise<unknown>, timeoutMs = 2000): Promise<CheckState> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
  });
  try {
    await Promise.race([work(), timeout]);
    return 'up';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

/** Operational endpoints for load balancers and orchestrators; outside /api/v1 and the public contract. */
@ApiExcludeController()
@Controller('health')
@Public()
export class HealthController {
  constructor(
    private readonly orm: MikroORM,
    private readonly redis: RedisService,
  ) {}

  /** Liveness: the process answers. */
  @Get()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: PostgreSQL and Redis both answer. */
  @Get('ready')
  async ready(
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ status: string; checks: Record<string, CheckState> }> {
    const [postgres, redis] = await Promise.all([
      probe(() => this.orm.em.fork().getConnection().execute('select 1')),
      probe(() => this.redis.client.ping()),
    ]);
    const ready = postgres === 'up' && redis === 'up';
    response.status(ready ? 200 : 503);
    return { status: ready ? 'ok' : 'unavailable', checks: { postgres, redis } };
  }
}
