import { app, BrowserWindow, ipcMain } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { defaults, VIEW_CHANNEL } from './config.mjs';

const __dirname = path.dirname(fileURLToPath(import.meta.url));

async function start() {
  const win = new BrowserWindow({
    webPreferences: { ...defaults, preload: path.join(__dirname, 'preload.cjs') },
  });
  await win.loadFile(path.join(__dirname, 'renderer', 'index.html'));
  const { render } = await import('./render.mjs');
  ipcMain.handle(VIEW_CHANNEL, (event, doc) => render(doc));
  new Worker(path.join(__dirname, 'indexer.mjs'));
}

app.whenReady().then(start);
