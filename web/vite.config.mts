import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The Vigil web interface: a static SPA served by the API from web/dist (with an index.html fallback).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
  },
  server: {
    // `npx vite --config web/vite.config.ts` against a local API on :3000 for development.
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
