// Configuration for the MikroORM CLI (`npm run migration:create`), loaded through @swc-node/register.
import 'reflect-metadata';
import { loadConfig } from '../config/app-config';
import { ormConfig } from './orm.config';

export default ormConfig(loadConfig().databaseUrl);
