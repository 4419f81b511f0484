import type { VirtualClock } from '../../clock/clock.js';
import type { Store } from '../../store/index.js';
import type { SecretBox } from '../../util/crypto.js';
import type { Ids } from '../../util/ids.js';

/**
 * What the domain functions work on: the emulator's state, its one clock, its ids and the box that
 * seals its secrets. Each face (the API's handlers, the console) passes its EmulatorContext, which
 * has these; a function that needs more (the scheduler, the bus) names what, not the whole context.
 * It imports the layers below only, so a module typed by it does not loop back through context.ts.
 */
export interface StateContext {
  store: Store;
  clock: VirtualClock;
  ids: Ids;
  box: SecretBox;
}
