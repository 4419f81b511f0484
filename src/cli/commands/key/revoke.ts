import { keyStateCommand } from './change-state.js';

/** `scanctl key revoke [key_id]` (CHOICE-8). */
export const register = keyStateCommand('revoke', 'revoke a key at once (final)');
