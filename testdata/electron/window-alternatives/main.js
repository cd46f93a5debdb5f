const { app, BrowserWindow, ipcMain } = require('electron');
const path = require('path');

const isDev = process.env.NODE_ENV === 'development';

function preloadPath(name) {
  return path.join(app.getAppPath(), 'dist', `${name}.js`);
}

let allowInsecure = false;
ipcMain.on('devtools:enable', () => {
  allowInsecure = true;
});

let mainWindow = null;

function createWindow() {
  mainWindow = new BrowserWindow({
    webPreferences: {
      preload: isDev ? path.join(__dirname, 'preload.dev.js') : preloadPath('preload'),
      webSecurity: !isDev,
      allowRunningInsecureContent: allowInsecure,
    },
  });
  mainWindow.loadURL(app.isPackaged ? 'app://index.html' : 'http://localhost:5173');
}

app.whenReady().then(createWindow);
