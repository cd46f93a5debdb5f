// Café is Latin-1 here: one byte that is not UTF-8.
const { app, BrowserWindow, ipcMain } = require('electron')
const path = require('path')
const { registerMenu } = require('./menu')
const settings = require('./settings-store')
const shared = require('../shared/electron-helpers')

app.whenReady().then(() => {
  const win = new BrowserWindow({ webPreferences: { contextIsolation: true, sandbox: true, preload: path.join(__dirname, 'preload.js') } })
  win.loadFile('index.html')
  registerMenu(win)
})

ipcMain.handle('settings:read', (event) => settings.read())
