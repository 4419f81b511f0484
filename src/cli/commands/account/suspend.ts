import { accountStateCommand } from './change-state.js';

export const register = accountStateCommand('suspend', 'suspend an account: its keys get 403 account_suspended');
