const { contextBridge, ipcRenderer } = require('electron')

contextBridge.exposeInMainWorld('bridge', {
  version: () => ipcRenderer.invoke('app:version')
})
