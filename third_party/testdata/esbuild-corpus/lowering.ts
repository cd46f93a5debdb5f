// ES2018+ syntax lowered for ES2017: object spread and rest, async
// generators, for await, optional catch binding, class fields, ?? and ?.
export enum Channel { Open = 'open', Close = 'close', Count = 2 }
export const enum Inline { A = 1 }
export namespace Bridge {
  export const name = 'bridge';
  export function key(k: string) { return name + ':' + k; }
}
export async function* pages(n: number) {
  for (let i = 0; i < n; i++) yield i;
}
export async function collect(src: AsyncIterable<number>) {
  const out: number[] = [];
  for await (const v of src) out.push(v);
  return out;
}
export function merge<T extends object>(a: T, b: Partial<T>) {
  const { ...rest } = { ...a, ...b };
  try { JSON.parse('{'); } catch { /* optional binding */ }
  return rest ?? a?.toString();
}
export default class Store { data = new Map<string, unknown>(); static version = Inline.A; }
export * from './other';
export * as ns from './third';
export { Channel as Channels };
import type { Type } from './types';
import def, * as all from './mixed';
export const used = [def, all];
