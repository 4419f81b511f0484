import { keyStateCommand } from './change-state.js';

/** `scanctl key reinstate [key_id]` (CHOICE-8). */
export const register = keyStateCommand('reinstate', 'lift a key suspension');
