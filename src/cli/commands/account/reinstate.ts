import { accountStateCommand } from './change-state.js';

export const register = accountStateCommand('reinstate', 'lift an account suspension');
