import { app, BrowserWindow } from 'electron';
import * as path from 'path';
import { handle, broadcast } from './ipc';
import { WindowManager } from './window-manager';

const manager = new WindowManager();

app.whenReady().then(() => {
  const win = new BrowserWindow({ webPreferences: { preload: path.join(__dirname, 'preload.js') } });
  manager.track(win);
  handle('settings:get', async () => ({ theme: 'dark' }));
  handle(`files:${'list'}`, async () => []);
  broadcast('app:ready');
  manager.send('window:focused', true);
});
