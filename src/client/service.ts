import type { CreateSessionRequest } from '../contract/sessions.js';
import { backendOperations } from '../contract/operations/backend.js';
import { ApiClient, type FetchLike } from './api.js';

/**
 * The service's public backend routes. Works against the emulator and the real base URL alike:
 * nothing here touches the control plane.
 */
export async function mintSession(baseUrl: string, secretKey: string, body: CreateSessionRequest, fetchImpl?: FetchLike) {
  return (await new ApiClient(baseUrl, fetchImpl).call(backendOperations.createSession, { bearer: secretKey, body })).body;
}

export async function deleteResults(baseUrl: string, secretKey: string, hostUserRef: string, fetchImpl?: FetchLike) {
  return (
    await new ApiClient(baseUrl, fetchImpl).call(backendOperations.deleteResults, {
      bearer: secretKey,
      query: { host_user_ref: hostUserRef },
    })
  ).body;
}
