import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError, NotFound, RateLimited } from '../common/errors/domain-errors';
import { RateLimitService } from '../common/rate-limit/rate-limit.service';
import { acrossWorkspaces } from '../common/tenancy/workspace-scope';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { MonitorDto, PingReceiptDto } from './dto/monitor.dto';
import { Monitor } from './entities/monitor.entity';
import { newPingToken } from './heartbeat-input';
import { MonitorCheckRecorder } from './monitor-check-recorder';
import { presentMonitor } from './monitor.presenter';

/** What a ping says: the job started, ended well, or failed. */
export type PingKind = 'start' | 'success' | 'fail';

/**
 * Heartbeat pings, public and keyed by their URL's secret alone (whatever the workspace), and the rotation of that
 * secret. An unknown token and a rotated one get the same 404, and every token is rate limited before it is looked up,
 * so neither the answer nor its headers tell whether a monitor exists.
 */
@Injectable()
export class HeartbeatsService {
  constructor(
    private readonly em: EntityManager,
    private readonly recorder: MonitorCheckRecorder,
    private readonly rateLimits: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async ping(token: string, kind: PingKind, exitCode: number | null, output: string | null): Promise<PingReceiptDto> {
    const receivedAt = new Date();
    const allowance = await this.rateLimits.consume(`ping:${token}`, this.config.heartbeatPingsPerMinute);
    if (!allowance.allowed) throw new RateLimited(allowance.resetSeconds);
    if (kind === 'start') {
      // A start only times the run: it is not the expected ping, and a paused monitor keeps it harmlessly.
      const started = await acrossWorkspaces(this.em).nativeUpdate(
        Monitor,
        { heartbeatToken: token },
        { heartbeatStartedAt: receivedAt },
      );
      if (!started) throw new NotFound('Heartbeat');
    } else {
      const failed = kind === 'fail' || (exitCode ?? 0) !== 0;
      const recorded = await this.recorder.recordPing(token, { failed, exitCode, output, receivedAt });
      if (recorded === null) throw new NotFound('Heartbeat');
    }
    return { received_at: receivedAt.toISOString() };
  }

  /** A new secret for the monitor's ping URL; the old one answers 404 from now on. */
  async rotate(id: string, origin: string): Promise<MonitorDto> {
    const monitor = await this.em.findOne(Monitor, { id });
    if (!monitor) throw new NotFound('Monitor');
    if (monitor.mode !== 'heartbeat') {
      throw new DomainError('not_a_heartbeat', 'Only a heartbeat monitor has a ping URL to rotate.');
    }
    monitor.heartbeatToken = newPingToken();
    await this.em.flush();
    return presentMonitor(monitor, origin);
  }
}
