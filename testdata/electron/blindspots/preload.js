const { contextBridge, ipcRenderer } = require('electron')
contextBridge.exposeInMainWorld('settings', { read: () => ipcRenderer.invoke('settings:read') })
