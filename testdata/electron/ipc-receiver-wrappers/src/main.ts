import { app, BrowserWindow, ipcMain, type WebContents } from 'electron';
import * as path from 'path';
import { send, sendToFrame, listen } from './typed-ipc-main';

function sendAction(channel: string, ...args: unknown[]): void {
  const win = BrowserWindow.getAllWindows()[0];
  if (win === undefined) {
    return;
  }
  send(win.webContents, channel, ...args);
}

function ding(mainContents: WebContents): void {
  send(mainContents, 'play-ding');
}

const logger = { send(message: string) { console.log(message); } };

app.whenReady().then(() => {
  const win = new BrowserWindow({ webPreferences: { preload: path.join(__dirname, 'preload.js') } });
  const page = win.webContents;
  send(page, 'focus');
  sendToFrame(win.webContents, 1, 'frame-hello');
  sendAction('zoom-in');
  ding(page);
  send(logger, 'not-ipc');
  listen(ipcMain, 'ping', () => {});
  ipcMain.on('forward', (_event, channel: string, ...args: unknown[]) => {
    send(page, channel, ...args);
  });
});
