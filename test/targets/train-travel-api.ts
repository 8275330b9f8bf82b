import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';

/**
 * Bump.sh's Train Travel API (OpenAPI 3.1, OAuth2 bearer tokens, RFC 9457 problem+json errors), as readme's example set
 * ports it (`node_modules/@readme/oas-examples/3.1/yaml/train-travel.yaml`), written on plain node:http by reading that
 * document, the way a team that is not ours would: it imports nothing of petstore-kit and shares no code with the
 * mock. Stations and trips are a fixed timetable; bookings are made, read, listed and deleted; a payment is taken
 * for a booking. Each fault below is one a team makes, switched on by name, one at a time.
 */
export const TRAIN_TRAVEL_FAULTS = [
  // Schema breaks: a booking read back carries has_dog as text ("yes"), where the Booking schema says boolean.
  'booking-dog-as-text',
  // Undeclared statuses: a booking made is answered 200, where create-booking declares 201 alone for success.
  'create-answers-200',
  // Problem shape: a problem's status sent as text ("404"), where the Problem schema says integer.
  'problem-status-as-text',
  // Any token accepted: every Bearer token passes, as a gateway that only checks the header is there.
  'any-token',
  // The scheme's name compared case-sensitively: `bearer <token>` and `BEARER <token>` refused, where RFC 9110 §11.1
  // makes it a case-insensitive token.
  'bearer-case-sensitive',
  // Use after delete: DELETE answers 204 and forgets nothing.
  'use-after-delete',
  // Stale reads: a booking is read through a cache filled when it is made, which DELETE does not clear.
  'stale-read',
  // Stale reads: the bookings list comes from an index refreshed one create late, so the newest booking is missing.
  'stale-list',
  // Filters: get-trips ignores dogs=true and lists trips that take no dogs.
  'trips-filter-ignored',
  // Pagination: the bookings list stops after 3 items and gives no `next` link to the rest.
  'list-truncated',
  // Refused writes with side effects: a create refused for a field of the wrong type has stored its valid fields.
  'refused-create-stores',
  // Links: a booking's links.self is a path (/bookings/…), where Links-Self says `format: uri` (RFC 3986 §3: a scheme).
  'self-link-relative',
  // Links: a booking's links.self names another collection (/trips/…).
  'self-link-elsewhere',
  // Validation too lax: has_bicycle and has_dog take any JSON value, as JavaScript's Boolean() reads it.
  'lax-booleans',
  // Validation too strict: has_dog, an optional field of Booking the API answers in every booking, refused on create.
  'refuses-has-dog',
  // Payments. Validation too lax: a payment's currency taken as any text, where BookingPayment lists eight.
  'payment-any-currency',
  // Undeclared statuses: a payment taken is answered 201, where create-booking-payment declares 200 alone for success.
  'payment-answers-201',
  // Schema breaks: a payment answered with status "paid", where BookingPayment's status is pending, succeeded or failed.
  'payment-status-paid',
  // Validation too strict: an amount with more than two decimals refused with 400, where BookingPayment's amount is
  // any number above 0.
  'payment-cents-only',
  // Use after delete: a payment taken for a booking deleted, where create-booking-payment declares no 404 to refuse it.
  'payment-after-delete',
] as const;

export type TrainTravelFault = (typeof TRAIN_TRAVEL_FAULTS)[number];

/** How the answers leave: Content-Length, chunked, gzip, or each connection closed after its answer. */
export const TRAIN_TRAVEL_TRANSPORTS = ['plain', 'chunked', 'gzip', 'close'] as const;
export type TrainTravelTransport = (typeof TRAIN_TRAVEL_TRANSPORTS)[number];

export interface TrainTravelOptions {
  /** The one access token this server accepts (as an authorization server would have issued it). */
  token: string;
  fault?: TrainTravelFault;
  transport?: TrainTravelTransport;
  /**
   * A booking's trip_id must name a trip of the timetable, else 404 (create-booking declares it): a refusal of a
   * schema-valid body for a reason of the server's own, which no contract runner may call a failure.
   */
  tripsMustExist?: boolean;
  /**
   * The bookings list pages by this many, each page linking to the next (`links.next`, Links-Pagination): a server
   * that pages of its own accord and says so, which no contract runner may call a list cut short.
   */
  pageSize?: number;
  /**
   * The public address its links are written under, as a gateway in front of it publishes them (the document's own
   * examples write `https://api.example.com/bookings/…`): another origin and path prefix, the same item path.
   */
  publicBase?: string;
}

export interface TrainTravelServer {
  url: string;
  /** The bookings stored, as stored (for a test that checks nothing was stored). */
  bookings(): Booking[];
  /** How many answers left each way (gzip only to a client that accepts it; chunked only with a body). */
  sent(): Record<TrainTravelTransport, number>;
  close(): Promise<void>;
}

interface Booking {
  id: string;
  trip_id?: string;
  passenger_name?: string;
  has_bicycle?: boolean;
  has_dog?: boolean;
}

interface Reply {
  status: number;
  type?: string;
  body?: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BERLIN = 'efdbb9d1-02c2-4bc3-afb7-6788d8782b1e';
const PARIS = 'b2e783e1-c824-4d63-b37a-d8d698862f1d';
const STATIONS = [
  { id: BERLIN, name: 'Berlin Hauptbahnhof', address: 'Invalidenstraße 10557 Berlin, Germany', country_code: 'DE' },
  { id: PARIS, name: 'Paris Gare du Nord', address: '18 Rue de Dunkerque 75010 Paris, France', country_code: 'FR' },
].map((station) => ({ ...station, timezone: station.country_code === 'DE' ? 'Europe/Berlin' : 'Europe/Paris' }));
const TRIPS = [
  { id: 'ea399ba1-6d95-433f-92d1-83f67b775594', operator: 'Deutsche Bahn', bicycles_allowed: true, dogs_allowed: true },
  { id: '4d67459c-af07-40bb-bb12-178dbb88e09f', operator: 'SNCF', bicycles_allowed: true, dogs_allowed: false },
  { id: '1725ff48-ab45-4bb5-9d02-88745177dedb', operator: 'SNCF', bicycles_allowed: false, dogs_allowed: true },
].map((trip, i) => ({
  ...trip,
  origin: i % 2 ? PARIS : BERLIN,
  destination: i % 2 ? BERLIN : PARIS,
  departure_time: `2024-02-01T${10 + i}:00:00Z`,
  arrival_time: `2024-02-01T${16 + i}:00:00Z`,
  price: 50 + i,
}));
/** The trips of the timetable, by id: the only trip_id a booking may name when trips must exist. */
export const TRAIN_TRAVEL_TRIP_IDS: readonly string[] = TRIPS.map((trip) => trip.id);
const BOOKING_FIELDS = { trip_id: 'uuid', passenger_name: 'string', has_bicycle: 'boolean', has_dog: 'boolean' };
const CURRENCIES = ['bam', 'bgn', 'chf', 'eur', 'gbp', 'nok', 'sek', 'try'];

/** A problem document (RFC 9457 §3.1) for `status`, as the document's responses give them. */
function problem(status: number, title: string, detail: string, fault?: TrainTravelFault): Reply {
  const slug = title.toLowerCase().replaceAll(' ', '-');
  const body = { type: `https://example.com/errors/${slug}`, title, status, detail };
  return {
    status,
    type: 'application/problem+json',
    body: fault === 'problem-status-as-text' ? { ...body, status: String(status) } : body,
  };
}

const badRequest = (detail: string, fault?: TrainTravelFault) => problem(400, 'Bad Request', detail, fault);
const notFound = (detail: string, fault?: TrainTravelFault) => problem(404, 'Not Found', detail, fault);

/** What is wrong with a Booking body, field by field as the schema declares them, or undefined. */
function bookingProblem(body: unknown, fault?: TrainTravelFault): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body must be a JSON object';
  const fields = body as Record<string, unknown>;
  if (fault === 'refuses-has-dog' && 'has_dog' in fields) return 'has_dog: dogs cannot be booked online';
  for (const [name, kind] of Object.entries(BOOKING_FIELDS)) {
    const value = fields[name];
    if (value === undefined) continue;
    if (kind === 'boolean' && fault === 'lax-booleans') continue;
    if (kind === 'uuid' ? typeof value !== 'string' || !UUID.test(value) : typeof value !== kind)
      return `${name}: a ${kind === 'uuid' ? 'UUID string' : kind} is required`;
  }
  return undefined;
}

/** The Booking a valid body makes: the fields the schema declares, nothing else; `id` is readOnly, so ours. */
function bookingFrom(fields: Record<string, unknown>): Booking {
  const booking: Booking = { id: randomUUID() };
  for (const name of Object.keys(BOOKING_FIELDS) as (keyof typeof BOOKING_FIELDS)[]) {
    const value = fields[name];
    if (value === undefined) continue;
    (booking as unknown as Record<string, unknown>)[name] = name.startsWith('has_') ? Boolean(value) : value;
  }
  return booking;
}

/** The fields of a body that are valid on their own: what a create that checks field by field has already taken. */
function validPart(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields).filter(([name, value]) => bookingProblem({ [name]: value }) === undefined),
  );
}

/** What is wrong with a BookingPayment body (amount > 0, a listed currency, a card or a bank account), or undefined. */
function paymentProblem(body: unknown, fault?: TrainTravelFault): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body must be a JSON object';
  const { amount, currency, source } = body as Record<string, unknown>;
  if (amount !== undefined && (typeof amount !== 'number' || amount <= 0)) return 'amount: a number above 0';
  if (fault === 'payment-cents-only' && typeof amount === 'number' && !/^\d+(\.\d{1,2})?$/.test(String(amount)))
    return 'amount: at most two decimals';
  const currencies = fault === 'payment-any-currency' ? [currency as string] : CURRENCIES;
  if (currency !== undefined && (typeof currency !== 'string' || !currencies.includes(currency)))
    return `currency: one of ${CURRENCIES.join(',')}`;
  if (source === undefined) return undefined;
  if (typeof source !== 'object' || source === null) return 'source: a card or a bank account';
  const fields = source as Record<string, unknown>;
  const card = ['name', 'number', 'cvc', 'exp_month', 'exp_year', 'address_country'];
  const bank = ['name', 'number', 'account_type', 'bank_name', 'country'];
  const has = (names: string[]) => names.every((name) => fields[name] !== undefined);
  return has(card) || has(bank) ? undefined : 'source: the fields of a card or a bank account';
}

/** The one place that knows the server's state: the bookings, the stale index of the fault, the payments. */
class TrainTravelState {
  readonly bookings = new Map<string, Booking>();
  /** The ids of the bookings deleted (with `payment-after-delete`, a payment still takes them). */
  readonly deleted = new Set<string>();
  /** With `stale-list`, the list's index, which catches up with the store one create late. */
  private index: string[] = [];
  private pending: string | undefined;
  /** With `stale-read`, the read cache, filled on create and never cleared. */
  private readonly cache = new Map<string, Booking>();

  constructor(readonly options: TrainTravelOptions) {}

  store(booking: Booking): void {
    this.bookings.set(booking.id, booking);
    if (this.options.fault === 'stale-read') this.cache.set(booking.id, booking);
    if (this.pending) this.index.push(this.pending);
    this.pending = booking.id;
  }

  remove(id: string): boolean {
    if (this.options.fault === 'use-after-delete') return this.bookings.has(id);
    this.index = this.index.filter((known) => known !== id);
    if (this.pending === id) this.pending = undefined;
    if (this.bookings.has(id)) this.deleted.add(id);
    return this.bookings.delete(id);
  }

  read(id: string): Booking | undefined {
    return this.bookings.get(id) ?? this.cache.get(id);
  }

  listed(): Booking[] {
    if (this.options.fault !== 'stale-list') return [...this.bookings.values()];
    return this.index.flatMap((id) => this.bookings.get(id) ?? []);
  }
}

function withSelf(booking: Booking, base: string, fault?: TrainTravelFault) {
  const collection = fault === 'self-link-elsewhere' ? 'trips' : 'bookings';
  const shown =
    fault === 'booking-dog-as-text' && booking.has_dog !== undefined
      ? { ...booking, has_dog: booking.has_dog ? 'yes' : 'no' }
      : booking;
  const origin = fault === 'self-link-relative' ? '' : base;
  return { ...shown, links: { self: `${origin}/${collection}/${booking.id}` } };
}

function listStations(base: string): Reply {
  return { status: 200, body: { data: STATIONS, links: { self: `${base}/stations` } } };
}

/** get-trips: origin, destination (UUIDs) and date (date-time) required; bicycles and dogs keep only trips allowing them. */
function listTrips(query: URLSearchParams, base: string, fault?: TrainTravelFault): Reply {
  for (const name of ['origin', 'destination'])
    if (!UUID.test(query.get(name) ?? '')) return badRequest(`${name}: a station's UUID is required`, fault);
  const date = query.get('date') ?? '';
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i.test(date) || Number.isNaN(Date.parse(date)))
    return badRequest('date: an RFC 3339 date-time is required', fault);
  const flags: Record<string, boolean> = {};
  for (const name of ['bicycles', 'dogs']) {
    const text = query.get(name);
    if (text !== null && text !== 'true' && text !== 'false') return badRequest(`${name}: true or false`, fault);
    flags[name] = text === 'true';
  }
  const data = TRIPS.filter(
    (trip) =>
      trip.origin === query.get('origin') &&
      trip.destination === query.get('destination') &&
      (!flags.bicycles || trip.bicycles_allowed) &&
      (!flags.dogs || trip.dogs_allowed || fault === 'trips-filter-ignored'),
  );
  return { status: 200, body: { data, links: { self: `${base}/trips?${query.toString()}` } } };
}

function listBookings(state: TrainTravelState, base: string, query: URLSearchParams): Reply {
  const all = state.listed().map((booking) => withSelf(booking, base, state.options.fault));
  const size = state.options.pageSize;
  if (size !== undefined) {
    const page = Math.max(1, Number.parseInt(query.get('page') ?? '1', 10) || 1);
    const data = all.slice((page - 1) * size, page * size);
    const next = page * size < all.length ? { next: `${base}/bookings?page=${page + 1}` } : {};
    return { status: 200, body: { data, links: { self: `${base}/bookings?page=${page}`, ...next } } };
  }
  const data = state.options.fault === 'list-truncated' ? all.slice(0, 3) : all;
  return { status: 200, body: { data, links: { self: `${base}/bookings` } } };
}

function createBooking(state: TrainTravelState, body: unknown, base: string): Reply {
  const { fault, tripsMustExist } = state.options;
  const wrong = bookingProblem(body, fault);
  if (wrong && fault === 'refused-create-stores' && typeof body === 'object' && body !== null)
    state.store(bookingFrom(validPart(body as Record<string, unknown>)));
  if (wrong) return badRequest(wrong, fault);
  const booking = bookingFrom(body as Record<string, unknown>);
  if (tripsMustExist && booking.trip_id !== undefined && !TRIPS.some((trip) => trip.id === booking.trip_id))
    return notFound(`trip ${booking.trip_id}: no such trip`, fault);
  state.store(booking);
  return { status: fault === 'create-answers-200' ? 200 : 201, body: withSelf(booking, base, fault) };
}

function readBooking(state: TrainTravelState, id: string, base: string): Reply {
  const booking = state.read(id);
  if (!booking) return notFound(`booking ${id}: no such booking`, state.options.fault);
  return { status: 200, body: withSelf(booking, base, state.options.fault) };
}

function deleteBooking(state: TrainTravelState, id: string): Reply {
  if (!state.remove(id)) return notFound(`booking ${id}: no such booking`, state.options.fault);
  return { status: 204 };
}

function payBooking(state: TrainTravelState, id: string, body: unknown, base: string): Reply {
  const fault = state.options.fault;
  const wrong = paymentProblem(body, fault);
  if (wrong) return badRequest(wrong, fault);
  // create-booking-payment declares no 404: a payment for no booking is a bad request.
  if (!state.bookings.has(id) && !(fault === 'payment-after-delete' && state.deleted.has(id)))
    return badRequest(`booking ${id}: no such booking`, fault);
  const payment = {
    ...(body as object),
    id: randomUUID(),
    status: fault === 'payment-status-paid' ? 'paid' : 'succeeded',
  };
  const status = fault === 'payment-answers-201' ? 201 : 200;
  return { status, body: { ...payment, links: { booking: `${base}/bookings/${id}` } } };
}

/**
 * The OAuth2 access token, sent as RFC 6750 §2.1 says: `Authorization: Bearer <token>`, the scheme's name in any case
 * (RFC 9110 §11.1: "a case-insensitive token").
 */
function authorized(req: IncomingMessage, options: TrainTravelOptions): boolean {
  const flags = options.fault === 'bearer-case-sensitive' ? '' : 'i';
  const match = new RegExp('^Bearer ([A-Za-z0-9\\-._~+/]+=*)$', flags).exec(req.headers.authorization ?? '');
  if (!match) return false;
  return options.fault === 'any-token' || match[1] === options.token;
}

/** A JSON body as a Booking or a payment is read (declared as application/json; anything else is a bad request). */
async function readJson(req: IncomingMessage): Promise<{ body?: unknown; wrong?: string }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  // The document declares 400 for these operations and no 415: a body of another type is a bad request.
  if (type !== 'application/json') return { wrong: 'send the body as application/json' };
  try {
    return { body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    return { wrong: 'the body is not JSON' };
  }
}

async function route(state: TrainTravelState, req: IncomingMessage, base: string): Promise<Reply> {
  const fault = state.options.fault;
  const url = new URL(req.url ?? '/', 'http://localhost');
  const item = /^\/bookings\/([^/]+)(\/payment)?$/.exec(url.pathname);
  const known = ['/stations', '/trips', '/bookings'].includes(url.pathname) || item !== null;
  if (!known) return notFound(`no resource at ${url.pathname}`, fault);
  if (!authorized(req, state.options))
    return problem(401, 'Unauthorized', 'a valid OAuth2 access token is required (Bearer)', fault);
  const method = req.method ?? 'GET';
  const needsBody = method === 'POST';
  const read = needsBody ? await readJson(req) : {};
  if (read.wrong) return badRequest(read.wrong, fault);
  const id = item ? decodeURIComponent(item[1]!) : '';
  if (item && !UUID.test(id)) return badRequest('bookingId: a UUID is required', fault);
  const routes: Record<string, (() => Reply) | undefined> = {
    'GET /stations': () => listStations(base),
    'GET /trips': () => listTrips(url.searchParams, base, fault),
    'GET /bookings': () => listBookings(state, base, url.searchParams),
    'POST /bookings': () => createBooking(state, read.body, base),
    'GET /booking': () => readBooking(state, id, base),
    'DELETE /booking': () => deleteBooking(state, id),
    'POST /payment': () => payBooking(state, id, read.body, base),
  };
  const key = item ? (item[2] ? `${method} /payment` : `${method} /booking`) : `${method} ${url.pathname}`;
  return routes[key]?.() ?? problem(405, 'Method Not Allowed', `${method} is not allowed here`, fault);
}

/** Writes a reply the way the transport says: one piece with its length, pieces chunked, gzip, or closing. */
function send(
  req: IncomingMessage,
  res: ServerResponse,
  reply: Reply,
  transport: TrainTravelTransport,
): TrainTravelTransport {
  const headers: Record<string, string> = { ratelimit: 'limit=1000, remaining=999, reset=60' };
  if (transport === 'close') headers.connection = 'close';
  if (reply.body === undefined) {
    res.writeHead(reply.status, headers);
    res.end();
    return transport === 'close' ? 'close' : 'plain';
  }
  headers['content-type'] = reply.type ?? 'application/json';
  const text = JSON.stringify(reply.body);
  if (transport === 'gzip' && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
    const zipped = gzipSync(text);
    res.writeHead(reply.status, { ...headers, 'content-encoding': 'gzip', 'content-length': String(zipped.length) });
    res.end(zipped);
    return 'gzip';
  }
  if (transport === 'chunked') {
    // No Content-Length: node:http sends Transfer-Encoding: chunked (RFC 9112 §7.1), one chunk per write.
    res.writeHead(reply.status, headers);
    for (let at = 0; at < text.length; at += 64) res.write(text.slice(at, at + 64));
    res.end();
    return 'chunked';
  }
  res.writeHead(reply.status, { ...headers, 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
  return transport === 'close' ? 'close' : 'plain';
}

export async function startTrainTravel(options: TrainTravelOptions): Promise<TrainTravelServer> {
  const state = new TrainTravelState(options);
  const transport = options.transport ?? 'plain';
  let base = '';
  const sent = Object.fromEntries(TRAIN_TRAVEL_TRANSPORTS.map((way) => [way, 0])) as Record<
    TrainTravelTransport,
    number
  >;
  const server = createServer((req, res) => {
    route(state, req, options.publicBase ?? base).then(
      (reply) => sent[send(req, res, reply, transport)]++,
      () => sent[send(req, res, problem(500, 'Internal Server Error', 'an unexpected error'), transport)]++,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    bookings: () => [...state.bookings.values()],
    sent: () => ({ ...sent }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
