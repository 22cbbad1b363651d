import type { Queue } from 'bull';
import { JOBS, monitorCheckJobOptions, type MonitorCheckJob } from '../queues/jobs';

/** The check queue of every configured region, by region name (built by MonitorsModule from REGIONS). */
export class MonitorQueues {
  private readonly byRegion: Map<string, Queue>;

  constructor(regions: string[], queues: Queue[]) {
    this.byRegion = new Map(regions.map((region, index) => [region, queues[index]]));
  }

  queue(region: string): Queue {
    const queue = this.byRegion.get(region);
    if (!queue) throw new Error(`no queue for region ${region}`);
    return queue;
  }

  async enqueue(checks: MonitorCheckJob[]): Promise<void> {
    const byRegion = new Map<string, MonitorCheckJob[]>();
    for (const check of checks) {
      const jobs = byRegion.get(check.region) ?? [];
      jobs.push(check);
      byRegion.set(check.region, jobs);
    }
    await Promise.all(
      [...byRegion].map(([region, jobs]) =>
        this.queue(region).addBulk(
          jobs.map((data) => ({ name: JOBS.checkMonitor, data, opts: monitorCheckJobOptions(data) })),
        ),
      ),
    );
  }
}
