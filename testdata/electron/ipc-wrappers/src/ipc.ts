import { ipcMain, BrowserWindow, IpcMainInvokeEvent } from 'electron';

type Handler = (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown;

// Every handler of the app goes through here.
export function handle(channel: string, fn: Handler): void {
  ipcMain.handle(channel, fn);
}

export const broadcast = (channel: string, ...args: unknown[]) => {
  for (const w of BrowserWindow.getAllWindows()) {
    w.webContents.send(channel, ...args);
  }
};
