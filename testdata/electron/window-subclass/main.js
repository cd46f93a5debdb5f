const { app } = require('electron');
const { AppWindow } = require('./app-window');

class SettingsWindow extends AppWindow {
  constructor() {
    super({ width: 400, webPreferences: { sandbox: false } });
  }
}

app.whenReady().then(() => {
  const main = new AppWindow({ width: 1200 });
  main.loadFile('index.html');
  const settings = new SettingsWindow();
  settings.loadFile('settings.html');
});
