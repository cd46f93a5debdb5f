export const IPC = {
  settingsGet: 'settings:get',
  settingsSet: 'settings:set',
  openExternal: 'shell:open-external'
} as const

export type Channel = (typeof IPC)[keyof typeof IPC]
