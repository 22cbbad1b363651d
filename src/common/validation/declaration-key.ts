import { ApiProperty } from '@nestjs/swagger';

/** A managed resource's key in the declaration that manages it (src/declarations); null when managed by hand. */
export const DeclarationKeyProperty = (): PropertyDecorator =>
  ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The key of the declaration managing it (`/workspaces/{id}/declaration`); null when managed by hand.',
  });
