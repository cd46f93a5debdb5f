const { app, BrowserWindow, ipcMain, MessageChannelMain } = require('electron');
const path = require('path');

app.whenReady().then(() => {
  const win = new BrowserWindow({ webPreferences: { preload: path.join(__dirname, 'preload.js') } });
  win.loadFile('index.html');

  ipcMain.on('ping', (event) => {
    event.reply('pong', Date.now());
  });

  // Handlers scoped to one window's webContents.
  win.webContents.ipc.handle('window:title', () => win.getTitle());
  win.webContents.ipc.on('window:log', (event, msg) => console.log(msg));

  const { port1, port2 } = new MessageChannelMain();
  win.webContents.postMessage('port', null, [port2]);
  port1.on('message', () => {});
  port1.start();

  win.webContents.sendToFrame(1, 'frame:hello');
});
