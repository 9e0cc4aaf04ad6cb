import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The gateway serves the build under /app/ (decision 0068); hashed assets are cached for a year there. */
export default defineConfig({
  base: '/app/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline module-preload polyfill or data: URLs: the CSP allows scripts from 'self' only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
});
