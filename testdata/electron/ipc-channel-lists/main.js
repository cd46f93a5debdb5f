const { ipcMain } = require('electron');
const { DB_TABLES, FILE_CHANNELS } = require('./channels');

DB_TABLES.forEach((table) => {
  ipcMain.handle(`db:${table}:list`, async () => []);
});

for (const channel of Object.values(FILE_CHANNELS)) {
  ipcMain.on(channel, () => {});
}

for (const key in FILE_CHANNELS) {
  ipcMain.handle(`meta:${key}`, () => key);
}
