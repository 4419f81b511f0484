import type { DeleteResultsResponse } from '../contract/results.js';
import type { CreateSessionRequest, SessionResponse } from '../contract/sessions.js';
import { call } from './http.js';

/**
 * The service's public backend routes. Works against the emulator and the real base URL alike:
 * nothing here touches the control plane.
 */
export async function mintSession(baseUrl: string, secretKey: string, body: CreateSessionRequest): Promise<SessionResponse> {
  const { body: session } = await call<SessionResponse>(baseUrl, 'POST', '/v1/sessions', {
    headers: { authorization: `Bearer ${secretKey}` },
    json: body,
  });
  return session;
}

export async function deleteResults(baseUrl: string, secretKey: string, hostUserRef: string): Promise<DeleteResultsResponse> {
  const { body } = await call<DeleteResultsResponse>(baseUrl, 'DELETE', '/v1/results', {
    headers: { authorization: `Bearer ${secretKey}` },
    query: { host_user_ref: hostUserRef },
  });
  return body;
}
