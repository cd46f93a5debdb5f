const { BrowserWindow } = require('electron');
const path = require('path');

const secureDefaults = { contextIsolation: true, sandbox: true, nodeIntegration: false };

class AppWindow extends BrowserWindow {
  constructor(options = {}) {
    super({
      show: false,
      ...options,
      webPreferences: Object.assign({}, secureDefaults, options.webPreferences, {
        preload: path.join(__dirname, 'preload.js'),
      }),
    });
  }
}

module.exports = { AppWindow };
