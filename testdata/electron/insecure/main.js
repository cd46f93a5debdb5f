const electron = require('electron');
const path = require('path');
const { CHANNEL_SAVE, CHANNEL_OPEN, CHANNEL_STATUS } = require('./shared/channels');
const { baseWebPreferences } = require('./window-options');

const { app, BrowserWindow, ipcMain, shell } = electron;

function editorPreferences() {
  return {
    ...baseWebPreferences(),
    webSecurity: false,
    preload: path.join(__dirname, 'preload.js'),
  };
}

let mainWindow;

function open() {
  mainWindow = new BrowserWindow({ width: 1200, webPreferences: editorPreferences() });
  mainWindow.loadURL('http://editor.example.com/app?token=secret');
  mainWindow.webContents.send(CHANNEL_STATUS, 'ready');
}

function openFromArgs(options) {
  return new electron.BrowserWindow(options);
}

ipcMain.on(CHANNEL_SAVE, (event, data) => {
  require('fs').writeFileSync(data.path, data.body);
});
ipcMain.handle(CHANNEL_OPEN, async () => 'first');
ipcMain.handle(CHANNEL_OPEN, async () => 'second');
ipcMain.handle(process.argv[2], () => 'dynamic');

app.on('web-contents-created', (event, contents) => {
  contents.on('new-window', (e, url) => shell.openExternal(url));
});
app.commandLine.appendSwitch('ignore-certificate-errors');
app.whenReady().then(() => {
  open();
  openFromArgs(JSON.parse(process.argv[3]));
});
global.fixtureExecuted = true;
throw new Error('fixture executed');
