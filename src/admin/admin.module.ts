import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { UsersModule } from '../users/users.module';
import { AdminController } from './admin.controller';

@Module({ imports: [UsersModule, ApiKeysModule], controllers: [AdminController] })
export class AdminModule {}
