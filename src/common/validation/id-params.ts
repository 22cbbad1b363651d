import { UuidField } from './fields';

/** Path parameters `{id}`: a UUID, or a 400 naming `id`. Use as `@Param() { id }: IdParams`. */
export class IdParams {
  @UuidField({ description: "The resource's identifier." })
  id: string;
}
