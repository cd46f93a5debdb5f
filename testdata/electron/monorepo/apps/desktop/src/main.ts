import * as path from 'path'
import { app, BrowserWindow } from '@mono/electron-shell'
import { ipcMain } from '@mono/electron-shell/ipc'
import { Channel, secureDefaults } from '@mono/core'

function openWorkspace(): BrowserWindow {
  const win = new BrowserWindow({ ...secureDefaults, width: 1200, height: 800 })
  void win.loadFile(path.join(__dirname, '../static/index.html'))
  return win
}

ipcMain.handle(Channel.OpenFile, async (_e, file: string) => file)
ipcMain.handle(Channel.SaveFile, async (_e, file: string) => file)

app.whenReady().then(openWorkspace)
