const { contextBridge, ipcRenderer } = require("electron");

contextBridge.exposeInMainWorld("api", {
  open: (name) => ipcRenderer.invoke("feature:open", name),
  save: (values) => ipcRenderer.invoke("settings:save", values),
  exportCsv: () => ipcRenderer.invoke("feature:export"),
  openSettings: () => ipcRenderer.send("settings:open"),
  log: (line) => ipcRenderer.send("log:write", line),
});
