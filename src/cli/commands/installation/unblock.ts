import { installationStateCommand } from './change-state.js';

export const register = installationStateCommand('unblock', 'lift the block');
