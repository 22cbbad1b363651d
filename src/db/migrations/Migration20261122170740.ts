import { Migration } from '@mikro-orm/migrations';

export class Migration20261122170740 extends Migration {
  override name = 'Migration20261122170740';

  override up(): void | Promise<void> {
    this.addSql(`create table "settings" ("key" text not null, "value" text not null, primary key ("key"));`);

    this.addSql(
      `create table "users" ("id" uuid not null, "email" text not null, "password_hash" text not null, "role" text not null, "plan" text not null default 'free', "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);
    this.addSql(`alter table "users" add constraint "users_role_check" check ("role" in ('admin', 'member'));`);

    this.addSql(
      `create table "api_keys" ("id" uuid not null, "user_id" uuid not null, "name" text not null, "prefix" text not null, "secret_hash" text not null, "scopes" text[] not null, "expires_at" timestamptz null, "created_at" timestamptz not null, "last_used_at" timestamptz null, "revoked_at" timestamptz null, "rate_limit_per_minute" int null, primary key ("id"));`,
    );
    this.addSql(`alter table "api_keys" add constraint "api_keys_secret_hash_unique" unique ("secret_hash");`);
    this.addSql(`create index "api_keys_user_id_created_at_index" on "api_keys" ("user_id", "created_at");`);

    this.addSql(
      `alter table "api_keys" add constraint "api_keys_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );
  }
}
