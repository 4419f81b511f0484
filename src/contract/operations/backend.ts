import { DeleteResultsQuery, DeleteResultsResponse } from '../results.js';
import { CreateSessionRequest, SessionResponse } from '../sessions.js';
import { defineOperation } from '../operation.js';

/** The customer backend's routes: the only ones the spec shows in full. */
export const backendOperations = {
  createSession: defineOperation({
    method: 'post',
    path: '/v1/sessions',
    operationId: 'createSession',
    summary: 'Mint a session token',
    description:
      'Called by the customer backend only, with its secret key. The token is short-lived (15 minutes) and stored only as a hash. ' +
      'The Idempotency-Key header is not accepted (SES-3): sending one, whatever its value, gets 400 idempotency_key_not_accepted; ' +
      'a retried mint yields another token and is never a second charge.',
    tag: 'backend',
    security: 'secretKey',
    rules: ['AUTH-1', 'AUTH-2', 'AUTH-3', 'AUTH-5', 'AUTH-6', 'AUTH-7', 'SES-1', 'SES-2', 'SES-3', 'SES-4', 'SES-9', 'SES-10'],
    request: { schema: CreateSessionRequest, example: { host_user_ref: 'member_123', scopes: ['scan.create'] } },
    responses: {
      201: {
        description: 'Token minted.',
        schema: SessionResponse,
        example: { session_token: 'vst_3kTq9ZbWcY1xN7pL0aRm5sHe', expires_at: '2026-11-22T10:15:00.000Z' },
      },
    },
    errors: ['publishable_key_used', 'key_revoked', 'key_suspended', 'account_suspended', 'quota_exceeded', 'idempotency_key_not_accepted'],
  }),
  deleteResults: defineOperation({
    method: 'delete',
    path: '/v1/results',
    operationId: 'deleteResults',
    summary: "Delete a member's stored results",
    description:
      "Removes every stored result and every queued delivery for host_user_ref under the calling key's app. " +
      'Answers 200 with deleted 0 when nothing exists to remove.',
    tag: 'backend',
    security: 'secretKey',
    rules: ['AUTH-4', 'DEL-1', 'DEL-2', 'DEL-3'],
    query: DeleteResultsQuery,
    responses: {
      200: {
        description: 'Deleted (possibly nothing).',
        schema: DeleteResultsResponse,
        example: { host_user_ref: 'member_123', deleted: 2 },
      },
    },
  }),
};
