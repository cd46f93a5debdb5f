import { app, BrowserWindow } from 'electron';
import path from 'node:path';
import { bundlePath, preloadDir } from '../common/paths';

app.whenReady().then(() => {
  const main = new BrowserWindow({
    webPreferences: { preload: path.join(bundlePath, '../preload/bridge.cjs'), sandbox: true },
  });
  main.loadFile(path.join(bundlePath, '../renderer/index.html'));
  const settings = new BrowserWindow({
    webPreferences: {
      preload: app.isPackaged ? path.join(preloadDir, 'settings.cjs') : path.join(preloadDir, 'settings.dev.cjs'),
    },
  });
  settings.loadFile(path.join(bundlePath, '../renderer/settings.html'));
});
