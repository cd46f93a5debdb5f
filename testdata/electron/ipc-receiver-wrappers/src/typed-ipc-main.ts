import type { IpcMain, IpcMainEvent, WebContents } from 'electron';

// Typed helpers: the IPC object is a parameter, as well as the channel.
export function send(contents: WebContents, channel: string, ...args: unknown[]): void {
  contents.send(channel, ...args);
}

export function sendToFrame(contents: WebContents, frameId: number, channel: string, ...args: unknown[]): void {
  contents.sendToFrame(frameId, channel, ...args);
}

export function listen(target: IpcMain, channel: string, fn: (event: IpcMainEvent, ...args: unknown[]) => void): void {
  target.on(channel, fn);
}
