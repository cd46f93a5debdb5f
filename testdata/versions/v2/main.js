const { app, BrowserWindow, ipcMain } = require("electron");
const path = require("path");
const util = require("./lib/util.js");

function createMain() {
  const win = new BrowserWindow({
    width: 800,
    webPreferences: {
      preload: path.join(__dirname, "preload.js"),
      contextIsolation: true,
      sandbox: false,
      nodeIntegration: false,
    },
  });
  win.loadFile(path.join(__dirname, "index.html"));
}

function createSettings() {
  const settings = new BrowserWindow({
    width: 400,
    webPreferences: {
      contextIsolation: false,
      nodeIntegration: true,
    },
  });
  settings.loadFile(path.join(__dirname, "settings.html"));
}

ipcMain.handle("feature:open", (event, name) => util.normalise(name));
ipcMain.handle("settings:save", async (event, values) => {
  await fetch("https://sync.example.com/v2/settings", { method: "POST", body: JSON.stringify(values) });
  return true;
});
ipcMain.handle("feature:export", () => null);
ipcMain.on("log:write", (event, line) => console.log(line));
ipcMain.on("settings:open", () => createSettings());

app.whenReady().then(createMain);
