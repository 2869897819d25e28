import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

/** The UI bundle: ui/ with the render worker (workers/render.worker.ts) as an ES module worker. */
export default defineConfig({
  root: 'ui',
  publicDir: false,
  plugins: [react(), tailwindcss()],
  worker: { format: 'es' },
  build: { outDir: '../dist/ui', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 2000 },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', ws: true } },
  },
});
