'use strict';
const { app, BrowserWindow, ipcMain, session } = require('electron');
const path = require('path');

const APP_ORIGIN = 'file://';

function createWindow() {
  const win = new BrowserWindow({
    width: 900,
    height: 700,
    webPreferences: {
      preload: path.join(__dirname, 'preload.js'),
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
    },
  });
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  win.loadFile('index.html');
  return win;
}

ipcMain.handle('notes:list', (event) => {
  if (!event.senderFrame.url.startsWith(APP_ORIGIN)) {
    throw new Error('unexpected sender');
  }
  return [];
});

app.whenReady().then(() => {
  session.defaultSession.setPermissionRequestHandler((wc, permission, cb) => cb(false));
  createWindow();
});

// If this file were ever executed by the analyser, it would leave a marker.
require('fs').writeFileSync('/tmp/rea-jsengine-executed-marker', 'executed');
throw new Error('fixture executed');
