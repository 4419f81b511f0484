import type { Command } from 'commander';
import { registerDeliveries } from './deliveries.js';
import { registerListen } from './listen.js';
import { registerVerify } from './verify.js';

/** scanctl webhook listen|deliveries|delivery|resend|verify. */
export function register(group: Command): void {
  registerListen(group);
  registerDeliveries(group);
  registerVerify(group);
}
