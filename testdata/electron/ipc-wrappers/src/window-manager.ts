import { BrowserWindow } from 'electron';

export class WindowManager {
  private win: BrowserWindow | null = null;

  track(win: BrowserWindow) {
    this.win = win;
    this.notify();
  }

  send(channel: string, payload?: unknown) {
    this.win?.webContents.send(channel, payload);
  }

  private notify() {
    this.send('window:tracked');
  }
}
