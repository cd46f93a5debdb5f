import { app, BrowserWindow, ipcMain } from 'electron';
import { join } from 'path';
import { ipcMain as ipc } from 'electron-better-ipc';

function createWindow(): BrowserWindow {
  const mainWindow = new BrowserWindow({
    width: 900,
    webPreferences: { preload: join(__dirname, '../preload/index.js'), sandbox: false },
  });
  mainWindow.loadFile(join(__dirname, '../renderer/index.html'));
  return mainWindow;
}

app.whenReady().then(() => {
  ipcMain.on('ping', () => console.log('pong'));
  ipc.answerRenderer('config:get', async () => ({ locale: 'en' }));
  const win = createWindow();
  ipc.callRenderer(win, 'config:changed', { locale: 'fr' });
});
