// Legacy (experimentalDecorators) and TC39 decorators, parameter decorators
// and decorator metadata: __decorateClass, __decorateParam, __runInitializers.
import { injectable, inject } from './di';

function logged(target: any, key: string, desc: PropertyDescriptor) {
  return desc;
}

@injectable()
export class WindowService {
  @inject('ipc') protected readonly ipc!: unknown;
  private count = 0;
  static instances = new Set<WindowService>();
  #secret = 'x';

  constructor(@inject('app') private readonly app: { name: string }) {}

  @logged
  open(url: string): void {
    this.count++;
    WindowService.instances.add(this);
  }

  get secret() { return this.#secret; }
  #hidden() { return this.count; }
  static { WindowService.instances.clear(); }
}
