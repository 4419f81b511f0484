import type { UndiciErrors } from './send-pools.js';

/** Where an attempt was when it ran out of time. */
type SendPhase = 'connect' | 'answer' | 'body';

const WAITING: Record<SendPhase, string> = {
  // Also a send still waiting for one of the origin's connections.
  connect: 'connecting (TCP or TLS handshake)',
  answer: 'waiting for the answer',
  body: "reading the answer's body",
};

/** The error of an attempt that ran out of time, saying what it was waiting for. */
export function timedOut(ms: number, phase: SendPhase): string {
  return `timed out after ${ms} ms ${WAITING[phase]}`;
}

/** llhttp's refusals of an answer (undici's HTTPParserError, by its code), in words. */
const PARSE_ERRORS: Record<string, string> = {
  HPE_INVALID_CONSTANT: 'not an HTTP/1.x answer (it does not begin with "HTTP/1.")',
  HPE_INVALID_VERSION: 'not an HTTP/1.x answer (an unknown HTTP version)',
  HPE_INVALID_STATUS: 'an invalid status line',
  HPE_CR_EXPECTED: 'a line ends in a bare LF, not CRLF',
  HPE_LF_EXPECTED: 'a CR not followed by LF',
  HPE_HEADER_OVERFLOW: 'status line and headers larger than 64 KiB',
  HPE_INVALID_CONTENT_LENGTH: 'an invalid Content-Length',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'both Content-Length and Transfer-Encoding',
  HPE_INVALID_TRANSFER_ENCODING: 'an invalid Transfer-Encoding',
  HPE_INVALID_HEADER_TOKEN: 'an invalid header line (a bad character, or an obsolete folded line)',
  HPE_INVALID_CHUNK_SIZE: 'an invalid chunk size',
  HPE_STRICT: 'a malformed chunk or line ending',
};

const TLS_UNTRUSTED: ReadonlySet<string> = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

export const NO_UPGRADE = 'unreadable answer: 101 Switching Protocols to a request that asked for no upgrade';

/**
 * undici closes the connection with one SocketError for a receiver that closed it, an interim
 * 100 Continue nobody asked for (deliveries never send Expect), a 101 upgrade, and bytes that answer
 * no request; only its message text tells these apart, so the error says what is known: whether
 * the receiver had sent anything on the connection.
 */
const CLOSED_SILENT = 'connection closed before an answer';
const CLOSED_AFTER_BYTES =
  'unreadable answer: the connection closed after bytes that are not a complete answer to this request ' +
  '(a head cut short, an interim 100 Continue or a 101 that was not asked for, or bytes past an earlier answer)';

/**
 * What the bytes undici's parser refused (the answer from the refused byte on) show: what a reader
 * of the attempt log sees in them, or else the bytes themselves.
 */
function refusedBytes(data: string | undefined): string {
  if (data === undefined) return 'not valid HTTP/1.1';
  if (/(^|[^\r])\n/.test(data)) return PARSE_ERRORS.HPE_CR_EXPECTED!;
  const firstLine = /^[^\r\n]*/.exec(data)![0];
  if (!firstLine.startsWith('HTTP/1.') && !firstLine.includes(':')) return PARSE_ERRORS.HPE_INVALID_CONSTANT!;
  return `not valid HTTP/1.1 (refused at ${JSON.stringify(data.slice(0, 40))})`;
}

/** undici's own errors (by class), in words; null for an error of another kind. */
function undiciError(error: Error, errors: UndiciErrors): string | null {
  if (error instanceof errors.HTTPParserError) {
    // undici 7 leaves the llhttp code undefined; then the refused bytes (its untyped `data`) are described instead.
    const data = 'data' in error && typeof error.data === 'string' ? error.data : undefined;
    const why = error.code ? PARSE_ERRORS[error.code] : refusedBytes(data);
    return `unreadable answer: ${why ?? 'not valid HTTP/1.1'}${error.code ? ` (${error.code})` : ''}`;
  }
  if (error instanceof errors.ResponseContentLengthMismatchError) {
    return 'unreadable answer: an invalid Content-Length, or a body of another length';
  }
  if (error instanceof errors.HeadersOverflowError) {
    return `unreadable answer: status line and headers larger than 64 KiB (${error.code})`;
  }
  if (error instanceof errors.SocketError) return error.socket?.bytesRead ? CLOSED_AFTER_BYTES : CLOSED_SILENT;
  if (error instanceof errors.ConnectTimeoutError) return 'timed out connecting (TCP or TLS handshake)';
  if (error instanceof errors.HeadersTimeoutError) return 'timed out waiting for the answer';
  if (error instanceof errors.BodyTimeoutError) return "timed out reading the answer's body";
  if (error instanceof errors.UndiciError) return `${error.code}: ${error.message.slice(0, 200)}`;
  return null;
}

/** The socket's and TLS's errors (by code), in words; null for a code not known here. */
function socketError(code: string): string | null {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'EPIPE':
      return 'connection closed while sending';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    default:
      return null;
  }
}

/**
 * undici's and the socket's errors as a person reads them, in the attempt log: the vocabulary of CHOICE-9
 * (connection refused, connection reset, unreadable answer: ...), never a stack. Told apart by the
 * error's class and code only; a message is quoted, never read.
 */
export function describeSendError(error: unknown, errors: UndiciErrors): string {
  if (!(error instanceof Error)) return `unexpected failure: ${String(error).slice(0, 200)}`;
  const fromUndici = undiciError(error, errors);
  if (fromUndici) return fromUndici;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  if (TLS_UNTRUSTED.has(code)) return `TLS: the receiver's certificate is not trusted (${code}: ${error.message.slice(0, 200)})`;
  return socketError(code) ?? (code ? `${code}: ` : '') + error.message.slice(0, 200);
}
