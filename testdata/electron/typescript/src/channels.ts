export enum Channel {
  Open = 'workbench:open',
  Close = 'workbench:close',
}

export const enum Priority {
  Low,
  High,
}

export interface Payload {
  id: string;
}
