/**
 * The reason phrases of the error statuses (RFC 9110 §15.5 and §15.6; 429 and 431 from RFC 6585), for the `title`
 * of an RFC 9457 problem: with `type` "about:blank" its title "SHOULD be the same as the recommended HTTP status
 * phrase for that code" (RFC 9457 §4.2.1). Written out here: Node's `STATUS_CODES` is not in a browser.
 */
const PHRASES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  417: 'Expectation Failed',
  421: 'Misdirected Request',
  422: 'Unprocessable Content',
  426: 'Upgrade Required',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
};

/** `404` → "Not Found"; a status without a registered phrase gets its class ("Client Error", "Server Error"). */
export function statusPhrase(status: number): string {
  return PHRASES[status] ?? (status >= 500 ? 'Server Error' : 'Client Error');
}
