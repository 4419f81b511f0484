/**
 * Resolves on the first SIGINT or SIGTERM (Ctrl+C, `kill`), then stops listening, so a second
 * Ctrl+C falls back to Node's default and ends the process. Used by the long-running commands
 * (`serve`, `webhook listen`) to shut down cleanly.
 */
export function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
