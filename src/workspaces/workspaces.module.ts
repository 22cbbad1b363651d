import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { WorkspacesController } from './workspaces.controller';
import { WorkspacesService } from './workspaces.service';

@Module({ imports: [UsersModule], controllers: [WorkspacesController], providers: [WorkspacesService] })
export class WorkspacesModule {}
