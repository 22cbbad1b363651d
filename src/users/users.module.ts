import { Module } from '@nestjs/common';
import { UsersController } from './users.controller';
import { PasswordHasher } from './password-hasher';
import { UsersService } from './users.service';

@Module({
  controllers: [UsersController],
  providers: [UsersService, PasswordHasher],
  exports: [UsersService, PasswordHasher],
})
export class UsersModule {}
