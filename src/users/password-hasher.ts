import { Inject, Injectable } from '@nestjs/common';
import { argon2id, hash, verify } from 'argon2';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/**
 * Passwords as Argon2id hashes, at the cost the configuration sets (by default argon2's own: 64 MiB, 3 iterations, 4
 * lanes). A hash records its own parameters, so changing the cost leaves every stored password verifiable.
 */
@Injectable()
export class PasswordHasher {
  private readonly options: { type: typeof argon2id; memoryCost: number; timeCost: number; parallelism: number };

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const { memoryKib, iterations, parallelism } = config.passwordHashing;
    this.options = { type: argon2id, memoryCost: memoryKib, timeCost: iterations, parallelism };
  }

  hash(password: string): Promise<string> {
    return hash(password, this.options);
  }

  verify(passwordHash: string, password: string): Promise<boolean> {
    return verify(passwordHash, password);
  }
}
