const { app, BrowserWindow } = require('electron');
const path = require('node:path');

app.whenReady().then(() => {
  const win = new BrowserWindow({
    webPreferences: { preload: path.join(__dirname, 'preload', 'exposed.js'), contextIsolation: true, sandbox: true },
  });
  win.loadFile('index.html');
});
