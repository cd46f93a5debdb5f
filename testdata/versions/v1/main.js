const { app, BrowserWindow, ipcMain } = require("electron");
const path = require("path");
const util = require("./lib/util.js");

function createMain() {
  const win = new BrowserWindow({
    width: 800,
    webPreferences: {
      preload: path.join(__dirname, "preload.js"),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  });
  win.loadFile(path.join(__dirname, "index.html"));
}

ipcMain.handle("feature:open", (event, name) => util.normalise(name));
ipcMain.handle("settings:legacy", () => ({ legacy: true }));
ipcMain.on("log:write", (event, line) => console.log(line));

app.whenReady().then(createMain);
