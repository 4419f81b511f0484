import { useEffect, useState } from 'react';
import type { WebhookDeliveryDetail } from '../contract/webhooks.js';
import { errorMessage } from '../util/caught.js';

export type DetailState =
  { status: 'idle' } | { status: 'loading' } | { status: 'loaded'; detail: WebhookDeliveryDetail } | { status: 'error'; message: string };

/** Loads one delivery's detail through the callback it is given, again whenever `version` changes. */
export function useDeliveryDetail(
  load: (id: string) => Promise<WebhookDeliveryDetail>,
  deliveryId: string | null,
  version: unknown,
): DetailState {
  const [state, setState] = useState<DetailState>({ status: 'idle' });
  useEffect(() => {
    if (!deliveryId) {
      setState({ status: 'idle' });
      return;
    }
    let live = true;
    setState((s) => (s.status === 'loaded' && s.detail.id === deliveryId ? s : { status: 'loading' }));
    load(deliveryId).then(
      (detail) => live && setState({ status: 'loaded', detail }),
      (error: unknown) => live && setState({ status: 'error', message: errorMessage(error) }),
    );
    return () => {
      live = false;
    };
  }, [load, deliveryId, version]);
  return state;
}
