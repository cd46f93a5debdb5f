import { contextBridge, ipcRenderer } from 'electron'
import { IPC } from '../shared/ipc'

const api = {
  getSetting: (key: string) => ipcRenderer.invoke(IPC.settingsGet, key),
  setSetting: (key: string, value: unknown) => ipcRenderer.send(IPC.settingsSet, key, value)
}

contextBridge.exposeInMainWorld('api', api)
