import { app, BrowserWindow } from 'electron';

// Globals the Forge webpack plugin defines at build time.
declare const MAIN_WINDOW_WEBPACK_ENTRY: string;
declare const MAIN_WINDOW_PRELOAD_WEBPACK_ENTRY: string;

function getMainWindowOptions(): Electron.BrowserWindowConstructorOptions {
  return {
    width: 1200,
    webPreferences: { preload: MAIN_WINDOW_PRELOAD_WEBPACK_ENTRY, contextIsolation: true },
  };
}

app.whenReady().then(() => {
  const win = new BrowserWindow(getMainWindowOptions());
  win.loadURL(MAIN_WINDOW_WEBPACK_ENTRY);
});
