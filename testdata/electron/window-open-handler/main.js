const { app, BrowserWindow, WebContentsView, shell } = require('electron');
const path = require('path');

app.whenReady().then(() => {
  const win = new BrowserWindow({ webPreferences: { sandbox: true } });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://docs.example.com/')) {
      return {
        action: 'allow',
        overrideBrowserWindowOptions: {
          width: 600,
          webPreferences: { preload: path.join(__dirname, 'docs-preload.js'), nodeIntegration: true },
        },
      };
    }
    shell.openExternal(url);
    return { action: 'deny' };
  });

  const view = new WebContentsView({ webPreferences: { contextIsolation: false } });
  win.contentView.addChildView(view);
  view.webContents.loadURL('https://example.com/embed');
});
