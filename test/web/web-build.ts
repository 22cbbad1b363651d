import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
export const WEB = join(ROOT, 'web');

/** Builds web/dist when it is missing or older than any source of the web interface. */
export function ensureWebBuild(): void {
  const newest = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce((latest, entry) => {
      const path = join(dir, entry.name);
      return Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
    }, 0);
  const index = join(WEB, 'dist', 'index.html');
  const sources = Math.max(
    newest(join(WEB, 'src')),
    newest(join(WEB, 'public')),
    statSync(join(WEB, 'index.html')).mtimeMs,
    statSync(join(WEB, 'vite.config.mts')).mtimeMs,
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join(WEB, 'vite.config.mts')],
    // The bundle people get: jest's NODE_ENV=test would make Vite build React's development bundle.
    { cwd: ROOT, stdio: 'pipe', timeout: 120_000, env: { ...process.env, NODE_ENV: 'production' } },
  );
}
