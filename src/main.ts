import { enableCompileCache } from 'node:module';

// Checked before anything else loads: NestJS 12 and MikroORM 7 need Node >= 22 (require() of ES modules).
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 17)) {
  console.error(
    `vigil: needs Node >= 22.17, found ${process.versions.node}. Run it with npm (npm start), which uses the Node 24 ` +
      'the project installs, or put node_modules/.bin first on PATH.',
  );
  process.exit(1);
}

// V8's code cache of the modules, on disk (os.tmpdir()/node-compile-cache, or NODE_COMPILE_CACHE): a later start
// compiles its some 3,700 modules from it, about a fifth less CPU. Never fails: without it, modules compile as usual.
enableCompileCache();

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { start } = require('./bootstrap/start') as typeof import('./bootstrap/start');
start().catch((error: unknown) => {
  console.error('vigil: failed to start:', error);
  process.exit(1);
});
