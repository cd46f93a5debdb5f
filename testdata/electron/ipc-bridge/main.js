const { app, BrowserWindow, ipcMain } = require('electron');
const path = require('path');

function createWindow() {
  const win = new BrowserWindow({
    webPreferences: { preload: path.join(__dirname, 'preload.js'), contextIsolation: true, sandbox: true },
  });
  win.loadFile('index.html');
  return win;
}

ipcMain.on('toMain', (event, data) => {
  event.sender.send('fromMain', data);
});
ipcMain.handle('dialog:open', async () => null);

app.whenReady().then(createWindow);
