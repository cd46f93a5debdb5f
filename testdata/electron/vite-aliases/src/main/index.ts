import { app, ipcMain, type IpcMainInvokeEvent } from '@main/electron'
import { createMainWindow } from '@main/window'
import { SettingsStore } from './settings'
import { IPC } from '@shared/ipc'

await app.whenReady()

ipcMain.handle(IPC.settingsGet, (_event: IpcMainInvokeEvent, key: string) => SettingsStore.get().read(key))
ipcMain.on(IPC.settingsSet, (_event, key: string) => void key)

createMainWindow()
