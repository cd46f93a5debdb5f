export enum Channel {
  OpenFile = 'workspace:open-file',
  SaveFile = 'workspace:save-file',
}
