import type { BrowserWindowConstructorOptions } from 'electron'

export const secureDefaults: BrowserWindowConstructorOptions = {
  webPreferences: { contextIsolation: true, nodeIntegration: false, sandbox: true },
}
