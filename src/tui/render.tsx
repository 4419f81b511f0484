import { render } from 'ink';
import { ListenApp, type ListenAppProps } from './listen-app.js';

/**
 * Draws the listen TUI until the user quits or `closed` settles (the stream ended); the caller
 * then says why. Imported lazily by the command.
 */
export async function renderListen(props: ListenAppProps & { closed: Promise<unknown> }): Promise<void> {
  const { closed, ...appProps } = props;
  const instance = render(<ListenApp {...appProps} />, { exitOnCtrlC: false });
  void closed.then(() => instance.unmount());
  await instance.waitUntilExit();
}
