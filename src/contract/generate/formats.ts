import { fc, type Arbitrary } from './fast-check.js';
import { formatEnforced, stringFormatHolds } from './schema-check.js';

/**
 * What the generators know of one `format` (2020-12 Validation §7.3; OAS 3.0.3 §4.4 and 3.1 §4.2 add int32, int64,
 * float, double, byte, binary, password): random valid values, a deterministic one for sample bodies, and values
 * that break it. Whether the validator the mock uses checks the format at all is `formatEnforced` (ajv-formats 3,
 * full mode, and bigint-aware.ts's int64); a format it does not check gets no broken value, since a target may take
 * any string there and the mock does.
 */
export interface FormatEntry {
  /** The JSON type the format applies to. */
  type: 'string' | 'integer' | 'number';
  /** Where the format is defined, for the docs table. */
  source: string;
  /** Random valid values; fast-check must be loaded. Absent for numeric formats (the number plans read them). */
  arbitrary?: () => Arbitrary<string>;
  /** A deterministic valid value, carrying `label` where the format can. */
  sample?: (label: string, variant: number) => string;
  /** Values that break the format, the first the validator refuses is used. */
  broken?: string[];
}

/** A label as it can stand in a hostname label or an e-mail local part: letters, digits, inner hyphens. */
function plainLabel(label: string): string {
  const cut = label
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/--+/g, '-')
    .slice(-40)
    .replace(/^-+/, '');
  return cut || 'contract';
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Dates within years 1000–9999: RFC 3339 §5.6 `date-fullyear` is four digits. */
function dates(): Arbitrary<Date> {
  return fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true });
}

/** A time zone offset of RFC 3339 §5.6: `Z` or ±hh:mm. */
function offsets(): Arbitrary<string> {
  return fc.oneof(
    fc.constant('Z'),
    fc
      .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
      .map(([sign, hours, minutes]) => `${sign}${pad(hours)}:${pad(minutes)}`),
  );
}

/** An RFC 3339 `full-time` (or `partial-time` when `zone` is false): seconds with or without a fraction. */
function times(zone: boolean): Arbitrary<string> {
  return fc
    .tuple(dates(), fc.boolean(), zone ? offsets() : fc.constant(''))
    .map(([date, fraction, offset]) => date.toISOString().slice(11, fraction ? 23 : 19) + offset);
}

function dateTimes(): Arbitrary<string> {
  return fc
    .tuple(dates(), fc.boolean(), offsets())
    .map(([date, fraction, offset]) => date.toISOString().slice(0, fraction ? 23 : 19) + offset);
}

/** An ISO 8601 duration as RFC 3339 Appendix A writes it: `P3W`, `P1Y2M`, `PT4H5M6S`, `P1DT2H`. */
function durations(): Arbitrary<string> {
  const part = (unit: string) =>
    fc.option(
      fc.nat({ max: 99 }).map((n) => `${n}${unit}`),
      { nil: '' },
    );
  const date = fc.tuple(part('Y'), part('M'), part('D')).map((parts) => parts.join(''));
  const time = fc.tuple(part('H'), part('M'), part('S')).map((parts) => parts.join(''));
  return fc.oneof(
    fc.nat({ max: 99 }).map((n) => `P${n}W`),
    fc
      .tuple(date, time)
      .filter(([d, t]) => d !== '' || t !== '')
      .map(([d, t]) => `P${d}${t ? `T${t}` : ''}`),
  );
}

function jsonPointers(): Arbitrary<string> {
  return fc
    .array(fc.string({ maxLength: 6 }), { maxLength: 4 })
    .map((tokens) => tokens.map((t) => `/${t.replace(/~/g, '~0').replace(/\//g, '~1')}`).join(''));
}

/** RFC 4648 §4 base64 of some bytes; btoa is there in Node and in a page alike. */
function base64(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

/** Regular expressions in the ECMA-262 dialect that `format: regex` names (2020-12 Validation §7.3.8). */
const REGEXES = ['^[a-z]+$', '\\d{3}-\\d{4}', 'a|b', '(x)?y*', '.*', '^\\w+@\\w+\\.\\w{2,}$', '[A-Z][a-z]*'];

/**
 * Every format the generators know: all those of ajv-formats 3 (which the project's AJV checks) and OpenAPI's own.
 * A string format not listed is generated as any string: the validator ignores it.
 */
export const FORMATS: Record<string, FormatEntry> = {
  'date-time': {
    type: 'string',
    source: 'RFC 3339 §5.6',
    arbitrary: dateTimes,
    sample: () => '2026-01-02T03:04:05Z',
    broken: ['not-a-date-time', '2026-01-02T25:00:00Z'],
  },
  date: {
    type: 'string',
    source: 'RFC 3339 §5.6',
    arbitrary: () => dates().map((date) => date.toISOString().slice(0, 10)),
    sample: () => '2026-01-02',
    broken: ['2026-13-45', 'not-a-date'],
  },
  time: {
    type: 'string',
    source: 'RFC 3339 §5.6 (ajv-formats 3: the offset is required)',
    arbitrary: () => times(true),
    sample: () => '03:04:05Z',
    broken: ['25:61:00Z', 'not-a-time'],
  },
  'iso-time': {
    type: 'string',
    source: 'ISO 8601 (ajv-formats: the offset is optional)',
    arbitrary: () => fc.oneof(times(true), times(false)),
    sample: () => '03:04:05',
    broken: ['25:61:00', 'not-a-time'],
  },
  'iso-date-time': {
    type: 'string',
    source: 'ISO 8601 (ajv-formats: the offset is optional)',
    arbitrary: dateTimes,
    sample: () => '2026-01-02T03:04:05',
    broken: ['not-a-date-time'],
  },
  duration: {
    type: 'string',
    source: 'RFC 3339 Appendix A',
    arbitrary: durations,
    sample: (_, variant) => `P${1 + variant}D`,
    broken: ['P', '1D', 'not-a-duration'],
  },
  email: {
    type: 'string',
    source: 'RFC 5321 §4.1.2',
    arbitrary: () => fc.emailAddress(),
    sample: (label) => `${plainLabel(label)}@example.com`,
    broken: ['not-an-email', 'a@b@example.com'],
  },
  'idn-email': {
    type: 'string',
    source: 'RFC 6531',
    arbitrary: () =>
      fc.oneof(fc.emailAddress(), fc.constantFrom('josé@example.com', '用户@例子.广告', 'θσερ@εχαμπλε.ψομ')),
    sample: (label) => `${plainLabel(label)}@example.com`,
    broken: ['not-an-email'],
  },
  hostname: {
    type: 'string',
    source: 'RFC 1123 §2.1',
    arbitrary: () => fc.domain(),
    sample: (label) => `${plainLabel(label)}.example.com`,
    broken: ['-not-a-hostname-', 'not a hostname'],
  },
  'idn-hostname': {
    type: 'string',
    source: 'RFC 5890 §2.3.2.3',
    arbitrary: () => fc.oneof(fc.domain(), fc.constantFrom('bücher.example', '例子.广告')),
    sample: (label) => `${plainLabel(label)}.example.com`,
    broken: ['not a hostname'],
  },
  ipv4: {
    type: 'string',
    source: 'RFC 2673 §3.2',
    arbitrary: () => fc.ipV4(),
    sample: (_, variant) => `192.0.2.${1 + (variant % 254)}`,
    broken: ['256.1.1.1', 'not-an-ipv4'],
  },
  ipv6: {
    type: 'string',
    source: 'RFC 4291 §2.2',
    arbitrary: () => fc.ipV6(),
    sample: (_, variant) => `2001:db8::${(1 + variant).toString(16)}`,
    broken: ['1:2:3', 'not-an-ipv6'],
  },
  uri: {
    type: 'string',
    source: 'RFC 3986 §3',
    arbitrary: () => fc.webUrl({ withQueryParameters: true, withFragments: true }),
    sample: (label) => `https://example.com/${encodeURIComponent(label)}`,
    broken: ['not a uri', '/relative/only'],
  },
  'uri-reference': {
    type: 'string',
    source: 'RFC 3986 §4.1',
    arbitrary: () => fc.oneof(fc.webUrl(), fc.webPath()),
    sample: (label) => `/${encodeURIComponent(label)}`,
    broken: ['not a uri reference', '\\\\'],
  },
  iri: {
    type: 'string',
    source: 'RFC 3987',
    arbitrary: () => fc.webUrl(),
    sample: (label) => `https://example.com/${encodeURIComponent(label)}`,
    broken: ['not an iri'],
  },
  'iri-reference': {
    type: 'string',
    source: 'RFC 3987',
    arbitrary: () => fc.oneof(fc.webUrl(), fc.webPath()),
    sample: (label) => `/${encodeURIComponent(label)}`,
    broken: ['not an iri reference'],
  },
  'uri-template': {
    type: 'string',
    source: 'RFC 6570',
    arbitrary: () =>
      fc
        .tuple(fc.domain(), fc.constantFrom('{id}', '{/path}', '{?q,limit}', 'items'))
        .map(([d, t]) => `https://${d}/${t}`),
    sample: () => 'https://example.com/items/{id}',
    broken: ['https://example.com/{', '{{x}'],
  },
  url: {
    type: 'string',
    source: 'WHATWG URL (ajv-formats: http, https, ftp)',
    arbitrary: () => fc.webUrl(),
    sample: (label) => `https://example.com/${encodeURIComponent(label)}`,
    broken: ['not a url'],
  },
  uuid: {
    type: 'string',
    source: 'RFC 9562 §4',
    arbitrary: () => fc.uuid(),
    sample: () => '2f1e8d0c-6b1a-4c3e-9f00-5a4b3c2d1e0f',
    broken: ['not-a-uuid', '2f1e8d0c-6b1a-4c3e-9f00'],
  },
  'json-pointer': {
    type: 'string',
    source: 'RFC 6901 §3',
    arbitrary: jsonPointers,
    sample: (label) => `/${label.replace(/~/g, '~0').replace(/\//g, '~1')}`,
    broken: ['not/a/pointer', '/~2'],
  },
  'json-pointer-uri-fragment': {
    type: 'string',
    source: 'RFC 6901 §6',
    arbitrary: () =>
      fc
        .array(fc.stringMatching(/^[a-z0-9_]{0,6}$/), { maxLength: 4 })
        .map((t) => `#${t.map((x) => `/${x}`).join('')}`),
    sample: () => '#/items/0',
    broken: ['not-a-fragment'],
  },
  'relative-json-pointer': {
    type: 'string',
    source: 'draft-handrews-relative-json-pointer-01',
    arbitrary: () =>
      fc.tuple(fc.nat({ max: 9 }), fc.oneof(fc.constant('#'), jsonPointers())).map(([n, p]) => `${n}${p}`),
    sample: () => '0/items',
    broken: ['/not-relative', '-1'],
  },
  byte: {
    type: 'string',
    source: 'RFC 4648 §4 (OAS: base64-encoded characters)',
    arbitrary: () => fc.uint8Array({ maxLength: 48 }).map(base64),
    sample: (label) => base64(new TextEncoder().encode(label)),
    broken: ['not base64!', 'abc'],
  },
  binary: {
    type: 'string',
    source: 'OAS 3.0.3 §4.4 (any sequence of octets)',
  },
  password: {
    type: 'string',
    source: 'OAS 3.0.3 §4.4 (a hint to obscure the input)',
  },
  regex: {
    type: 'string',
    source: 'ECMA-262 (2020-12 Validation §7.3.8)',
    arbitrary: () => fc.constantFrom(...REGEXES),
    sample: (_, variant) => REGEXES[variant % REGEXES.length]!,
    broken: ['(', '[a-'],
  },
  int32: { type: 'integer', source: 'OAS 3.0.3 §4.4: signed 32 bits' },
  int64: { type: 'integer', source: 'OAS 3.0.3 §4.4: signed 64 bits (bigints beyond ±(2^53−1))' },
  float: { type: 'number', source: 'OAS 3.0.3 §4.4' },
  double: { type: 'number', source: 'OAS 3.0.3 §4.4' },
};

/**
 * Random values of a string format, each one the validator takes (the few fast-check builds that ajv-formats reads
 * otherwise, such as a `url` with `--` in a label, are left out); undefined for a format this table does not generate.
 */
export function formatArbitrary(format: string): Arbitrary<string> | undefined {
  const entry = FORMATS[format];
  if (!entry?.arbitrary) return undefined;
  return entry.arbitrary().filter((value) => stringFormatHolds(format, value));
}

/** A deterministic value of a string format, or undefined for one this table does not generate. */
export function formatSample(format: string, label: string, variant: number): string | undefined {
  const value = FORMATS[format]?.sample?.(label, variant);
  return value !== undefined && stringFormatHolds(format, value) ? value : undefined;
}

/** A value breaking a string format the validator checks, or undefined when it checks none. */
export function brokenFormat(format: string): string | undefined {
  if (!formatEnforced(format)) return undefined;
  return FORMATS[format]?.broken?.find((value) => !stringFormatHolds(format, value));
}
