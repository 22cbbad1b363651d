import { Migration } from '@mikro-orm/migrations';

/**
 * Workspaces. Every person gets one personal workspace (named by their e-mail, on their plan, with them as admin),
 * and everything they owned moves into it: monitors (and through them checks, rollups, readings), changes, release
 * checks (and their artifacts and reviews) and API keys. Who created a monitor or a key, and who opened a release
 * check, is kept. Nothing is deleted; test/e2e/workspace-migration.spec.ts proves it on data of the old schema.
 */
export class Migration20261124222514 extends Migration {
  override name = 'Migration20261124222514';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "workspaces" ("id" uuid not null, "name" text not null, "plan" text not null default 'free', "review_policy" jsonb not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create table "workspace_members" ("workspace_id" uuid not null, "user_id" uuid not null, "role" text not null, "created_at" timestamptz not null, primary key ("workspace_id", "user_id"));`,
    );
    this.addSql(
      `create index "workspace_members_user_id_created_at_index" on "workspace_members" ("user_id", "created_at");`,
    );
    this.addSql(
      `alter table "workspace_members" add constraint "workspace_members_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "workspace_members" add constraint "workspace_members_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "workspace_members" add constraint "workspace_members_role_check" check ("role" in ('admin', 'member', 'viewer'));`,
    );

    // One personal workspace per person, remembered in a mapping for the moves below.
    this.addSql(
      `create temporary table "personal_workspaces" on commit drop as select "id" as "user_id", gen_random_uuid() as "workspace_id" from "users";`,
    );
    this.addSql(
      `insert into "workspaces" ("id", "name", "plan", "review_policy", "created_at") select p."workspace_id", u."email", u."plan", '{"require_distinct_reviewer": false}', u."created_at" from "users" u join "personal_workspaces" p on p."user_id" = u."id";`,
    );
    this.addSql(
      `insert into "workspace_members" ("workspace_id", "user_id", "role", "created_at") select p."workspace_id", u."id", 'admin', u."created_at" from "users" u join "personal_workspaces" p on p."user_id" = u."id";`,
    );
    this.addSql(`alter table "users" drop column "plan";`);

    // Monitors, changes, release checks and keys: owner -> the owner's workspace; the owner stays as creator/opener.
    this.addSql(`alter table "monitors" add "workspace_id" uuid null, add "created_by_id" uuid null;`);
    this.addSql(
      `update "monitors" t set "workspace_id" = p."workspace_id", "created_by_id" = t."user_id" from "personal_workspaces" p where p."user_id" = t."user_id";`,
    );
    this.addSql(`alter table "changes" add "workspace_id" uuid null;`);
    this.addSql(
      `update "changes" t set "workspace_id" = p."workspace_id" from "personal_workspaces" p where p."user_id" = t."user_id";`,
    );
    this.addSql(
      `alter table "release_checks" add "workspace_id" uuid null, add "opened_by_id" uuid null, add "opened_by_key_id" uuid null;`,
    );
    this.addSql(
      `update "release_checks" t set "workspace_id" = p."workspace_id", "opened_by_id" = t."user_id" from "personal_workspaces" p where p."user_id" = t."user_id";`,
    );
    this.addSql(`alter table "api_keys" add "workspace_id" uuid null, add "created_by_id" uuid null;`);
    this.addSql(
      `update "api_keys" t set "workspace_id" = p."workspace_id", "created_by_id" = t."user_id" from "personal_workspaces" p where p."user_id" = t."user_id";`,
    );

    for (const table of ['monitors', 'changes', 'release_checks', 'api_keys']) {
      this.addSql(`alter table "${table}" alter column "workspace_id" set not null;`);
      this.addSql(
        `alter table "${table}" add constraint "${table}_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
      );
      // Drops the column's foreign key and the indexes and unique constraint that contain it.
      this.addSql(`alter table "${table}" drop column "user_id";`);
    }
    for (const [table, column] of [
      ['monitors', 'created_by_id'],
      ['release_checks', 'opened_by_id'],
      ['api_keys', 'created_by_id'],
    ]) {
      this.addSql(
        `alter table "${table}" add constraint "${table}_${column}_foreign" foreign key ("${column}") references "users" ("id") on delete set null;`,
      );
    }
    this.addSql(`create index "monitors_workspace_id_created_at_index" on "monitors" ("workspace_id", "created_at");`);
    this.addSql(
      `create index "changes_workspace_id_archived_detected_at_index" on "changes" ("workspace_id", "archived", "detected_at");`,
    );
    this.addSql(
      `create index "release_checks_workspace_id_created_at_index" on "release_checks" ("workspace_id", "created_at");`,
    );
    this.addSql(
      `alter table "release_checks" add constraint "release_checks_workspace_id_request_key_unique" unique ("workspace_id", "request_key");`,
    );
    this.addSql(`create index "api_keys_workspace_id_created_at_index" on "api_keys" ("workspace_id", "created_at");`);
  }

  /** Back to owners: each row goes to its creator, or else to its workspace's oldest admin. */
  override down(): void | Promise<void> {
    this.addSql(`alter table "users" add "plan" text not null default 'free';`);
    this.addSql(
      `update "users" u set "plan" = w."plan" from "workspace_members" m join "workspaces" w on w."id" = m."workspace_id" where m."user_id" = u."id" and m."role" = 'admin' and w."plan" <> 'free';`,
    );
    this.addSql(
      `create temporary table "workspace_owners" on commit drop as select distinct on ("workspace_id") "workspace_id", "user_id" from "workspace_members" where "role" = 'admin' order by "workspace_id", "created_at";`,
    );
    for (const [table, creator] of [
      ['monitors', 'created_by_id'],
      ['changes', null],
      ['release_checks', 'opened_by_id'],
      ['api_keys', 'created_by_id'],
    ] as const) {
      this.addSql(`alter table "${table}" add "user_id" uuid null;`);
      const owner = creator ? `coalesce(t."${creator}", o."user_id")` : `o."user_id"`;
      this.addSql(
        `update "${table}" t set "user_id" = ${owner} from "workspace_owners" o where o."workspace_id" = t."workspace_id";`,
      );
      this.addSql(`delete from "${table}" where "user_id" is null;`);
      this.addSql(`alter table "${table}" alter column "user_id" set not null;`);
      this.addSql(
        `alter table "${table}" add constraint "${table}_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
      );
      this.addSql(`alter table "${table}" drop column "workspace_id";`);
      if (creator) this.addSql(`alter table "${table}" drop column "${creator}";`);
    }
    this.addSql(`alter table "release_checks" drop column "opened_by_key_id";`);
    this.addSql(`create index "monitors_user_id_created_at_index" on "monitors" ("user_id", "created_at");`);
    this.addSql(
      `create index "changes_user_id_archived_detected_at_index" on "changes" ("user_id", "archived", "detected_at");`,
    );
    this.addSql(
      `create index "release_checks_user_id_created_at_index" on "release_checks" ("user_id", "created_at");`,
    );
    this.addSql(
      `alter table "release_checks" add constraint "release_checks_user_id_request_key_unique" unique ("user_id", "request_key");`,
    );
    this.addSql(`create index "api_keys_user_id_created_at_index" on "api_keys" ("user_id", "created_at");`);
    this.addSql(`drop table if exists "workspace_members" cascade;`);
    this.addSql(`drop table if exists "workspaces" cascade;`);
  }
}
