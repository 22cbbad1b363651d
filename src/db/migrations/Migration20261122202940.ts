import { Migration } from '@mikro-orm/migrations';

export class Migration20261122202940 extends Migration {
  override name = 'Migration20261122202940';

  override up(): void | Promise<void> {
    this.addSql(
      `create index "monitor_check_rollups_history_index" on "monitor_check_rollups" ("monitor_id", "hour") include ("region", "checks", "passed", "response_ms_sum");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "monitor_check_rollups_history_index";`);
  }
}
