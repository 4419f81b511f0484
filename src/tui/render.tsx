import { render } from 'ink';
import { ListenApp, type ListenAppProps } from './listen-app.js';

/** Draws the listen TUI until the user quits or the stream closes. Imported lazily by the command. */
export async function renderListen(props: ListenAppProps & { closed: Promise<void> }): Promise<void> {
  const { closed, ...appProps } = props;
  const instance = render(<ListenApp {...appProps} />);
  void closed.then(() => instance.unmount());
  await instance.waitUntilExit();
}
