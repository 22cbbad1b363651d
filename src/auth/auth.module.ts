import { Module } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { UsersModule } from '../users/users.module';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { Authenticator } from './authenticator';
import { SESSION_SECRET, sessionSecretProvider } from './session-secret.provider';

@Module({
  imports: [UsersModule, ApiKeysModule],
  controllers: [AuthController],
  providers: [
    sessionSecretProvider,
    {
      provide: JwtService,
      inject: [SESSION_SECRET, APP_CONFIG],
      useFactory: (secret: string, config: AppConfig) =>
        new JwtService({
          secret,
          signOptions: { algorithm: 'HS256', expiresIn: config.jwtTtlSeconds },
          verifyOptions: { algorithms: ['HS256'] },
        }),
    },
    AuthService,
    Authenticator,
  ],
  exports: [Authenticator],
})
export class AuthModule {}
