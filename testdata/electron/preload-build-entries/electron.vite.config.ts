import { defineConfig } from 'electron-vite';

// The build names its outputs: out/preload/bridge.cjs is built from
// src/preload/expose.ts, out/preload/settings.cjs from src/renderer/settings-page.ts.
export default defineConfig({
  main: {
    build: { rollupOptions: { input: { index: 'src/main/index.ts' } } },
  },
  preload: {
    build: {
      rollupOptions: {
        input: {
          bridge: 'src/preload/expose.ts',
          settings: 'src/renderer/settings-page.ts',
        },
        output: { format: 'cjs' },
      },
    },
  },
  renderer: {
    build: { rollupOptions: { input: { settings: 'src/renderer/settings.html' } } },
  },
});
