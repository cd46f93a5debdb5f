export { ipcMain } from "electron";
export * from "./index.js";
