import { app, BrowserWindow, ipcMain, IpcMainInvokeEvent } from 'electron';
import * as path from 'path';
import { Channel, Payload } from './channels';

function singleton<T extends { new (...args: any[]): object }>(ctor: T): T {
  return ctor;
}

@singleton
class WorkbenchWindow {
  private win?: BrowserWindow;

  open(): void {
    this.win = new BrowserWindow({
      webPreferences: {
        preload: path.join(__dirname, 'preload.js'),
        sandbox: true,
        contextIsolation: true,
      },
    });
    this.win.webContents.send(Channel.Close, { id: 'boot' } as Payload);
  }
}

ipcMain.handle(Channel.Open, (event: IpcMainInvokeEvent, id: string) => {
  return new URL(event.senderFrame.url).protocol === 'file:' ? id : null;
});

app.whenReady().then(() => new WorkbenchWindow().open());
