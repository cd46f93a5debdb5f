export * from './channels'
export * from './window-options'
