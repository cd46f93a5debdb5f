export class SettingsStore {
  static #instance: SettingsStore | undefined
  static {
    SettingsStore.#instance = undefined
  }
  #values = new Map<string, unknown>()

  static get(): SettingsStore {
    return (SettingsStore.#instance ??= new SettingsStore())
  }

  static owns(o: object): boolean {
    return #values in o
  }

  read(key: string): unknown {
    return this.#values.get(key)
  }
}
