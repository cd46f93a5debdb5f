// The main process imports Electron through this module only.
export { app, BrowserWindow, ipcMain, shell } from 'electron'
export type { IpcMainInvokeEvent } from 'electron'
