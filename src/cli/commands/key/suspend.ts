import { keyStateCommand } from './change-state.js';

/** `scanctl key suspend [key_id]` (CHOICE-8). */
export const register = keyStateCommand('suspend', 'suspend a key (403 key_suspended until reinstated)');
