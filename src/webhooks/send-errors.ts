/** Where an attempt was when it ran out of time. */
export type SendPhase = 'connect' | 'answer' | 'body';

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

const PARSE_ERRORS_TEXT = {
  notHttp: 'not an HTTP/1.x answer (it does not begin with "HTTP/1.")',
  bareLf: 'a line ends in a bare LF, not CRLF',
  crWithoutLf: 'a CR not followed by LF',
};

/** llhttp's refusals of an answer, in words (the code follows in brackets). */
const PARSE_ERRORS: Record<string, string> = {
  HPE_INVALID_CONSTANT: PARSE_ERRORS_TEXT.notHttp,
  HPE_INVALID_VERSION: 'not an HTTP/1.x answer (an unknown HTTP version)',
  HPE_INVALID_STATUS: 'an invalid status line',
  HPE_CR_EXPECTED: PARSE_ERRORS_TEXT.bareLf,
  HPE_LF_EXPECTED: PARSE_ERRORS_TEXT.crWithoutLf,
  HPE_HEADER_OVERFLOW: 'status line and headers larger than 64 KiB',
  HPE_INVALID_CONTENT_LENGTH: 'an invalid Content-Length',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'both Content-Length and Transfer-Encoding',
  HPE_INVALID_TRANSFER_ENCODING: 'an invalid Transfer-Encoding',
  HPE_INVALID_HEADER_TOKEN: 'an invalid header line (a bad character, or an obsolete folded line)',
  HPE_INVALID_CHUNK_SIZE: 'an invalid chunk size',
  HPE_STRICT: 'a malformed chunk or line ending',
};

const TLS_UNTRUSTED = new Set([
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

/** llhttp's refusals as undici words them: "Response does not match the HTTP/1.1 protocol (REASON)". */
const PARSER_REASONS: Record<string, string> = {
  'Expected HTTP/, RTSP/ or ICE/': PARSE_ERRORS_TEXT.notHttp,
  'Missing expected CR after response line': PARSE_ERRORS_TEXT.bareLf,
  'Missing expected CR after header value': PARSE_ERRORS_TEXT.bareLf,
  'Missing expected LF after header value': PARSE_ERRORS_TEXT.crWithoutLf,
};

/** undici's own errors, in words. */
function undiciError(code: string, message: string): string | null {
  const parse = /^Response does not match the HTTP\/1\.1 protocol \((.*)\)$/.exec(message);
  if (parse) return `unreadable answer: ${PARSER_REASONS[parse[1]!] ?? parse[1]!.slice(0, 200)}`;
  switch (code) {
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return 'unreadable answer: an invalid Content-Length, or a body of another length';
    case 'UND_ERR_HEADERS_OVERFLOW':
      return 'unreadable answer: status line and headers larger than 64 KiB (UND_ERR_HEADERS_OVERFLOW)';
    case 'UND_ERR_SOCKET':
      // undici's words for a 100 Continue nobody asked for (deliveries never send Expect), an answer to no request, an upgrade.
      if (message === 'bad response')
        return 'unreadable answer: an interim 100 Continue that was not asked for, or bytes that answer no request';
      if (message === 'bad upgrade') return NO_UPGRADE;
      return 'connection closed before an answer';
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'timed out connecting (TCP or TLS handshake)';
    case 'UND_ERR_HEADERS_TIMEOUT':
      return 'timed out waiting for the answer';
    case 'UND_ERR_BODY_TIMEOUT':
      return "timed out reading the answer's body";
    default:
      return null;
  }
}

/**
 * undici's and the socket's errors as a person reads them, in the attempt log: the vocabulary of CHOICE-9
 * (connection refused, connection reset, unreadable answer: ...), never a stack.
 */
export function describeSendError(error: NodeJS.ErrnoException & { reason?: string }): string {
  const code = error.code ?? '';
  const fromUndici = undiciError(code, error.message);
  if (fromUndici) return fromUndici;
  if (code.startsWith('HPE_')) {
    return `unreadable answer: ${PARSE_ERRORS[code] ?? (error.reason ?? error.message).slice(0, 200)} (${code})`;
  }
  if (TLS_UNTRUSTED.has(code)) return `TLS: the receiver's certificate is not trusted (${code}: ${error.message.slice(0, 200)})`;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      // Node's "socket hang up": the receiver closed the connection without a word.
      return error.message === 'socket hang up' ? 'connection closed before an answer' : 'connection reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'EPIPE':
      return 'connection closed while sending';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    default:
      return (code ? `${code}: ` : '') + error.message.slice(0, 200);
  }
}
