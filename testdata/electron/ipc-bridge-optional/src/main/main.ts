import { app, BrowserWindow, ipcMain } from 'electron';
import path from 'path';

ipcMain.on('ipc-example', (event) => {
  event.reply('ipc-example', 'pong');
});

app.whenReady().then(() => {
  const win = new BrowserWindow({ webPreferences: { preload: path.join(__dirname, 'preload.ts') } });
  win.loadFile('index.html');
});
