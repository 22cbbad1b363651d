import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** Service-wide values that every instance must share, such as a generated session-signing secret. */
@Entity({ tableName: 'settings' })
export class Setting {
  @PrimaryKey({ type: 'text' })
  key: string;

  @Property({ type: 'text' })
  value: string;
}
