import { installationStateCommand } from './change-state.js';

export const register = installationStateCommand(
  'block',
  'block an installation server-side: its next scan fails to start (403 installation_blocked)',
);
