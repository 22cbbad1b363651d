// Checked before anything else loads: NestJS 12 and MikroORM 7 need Node >= 22 (require() of ES modules).
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 17)) {
  console.error(
    `vigil: needs Node >= 22.17, found ${process.versions.node}. Run it with npm (npm start), which uses the Node 24 ` +
      'the project installs, or put node_modules/.bin first on PATH.',
  );
  process.exit(1);
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { start } = require('./bootstrap/start') as typeof import('./bootstrap/start');
start().catch((error: unknown) => {
  console.error('vigil: failed to start:', error);
  process.exit(1);
});
