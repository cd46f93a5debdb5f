const { contextBridge, ipcRenderer } = require("electron");
contextBridge.exposeInMainWorld("files", { open: () => ipcRenderer.invoke("bundle:open-file") });
