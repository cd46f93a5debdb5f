import * as path from 'node:path';
import type { ForgeConfig } from '@electron-forge/shared-types';

const root = process.cwd();

const config: ForgeConfig = {
  plugins: [
    {
      name: '@electron-forge/plugin-webpack',
      config: {
        renderer: {
          entryPoints: [
            {
              html: path.join(root, './static/index.html'),
              js: path.join(root, './src/renderer/main.ts'),
              name: 'main_window',
              preload: { js: path.join(root, 'src/preload/preload.ts') },
            },
          ],
        },
      },
    },
  ],
};

export default config;
