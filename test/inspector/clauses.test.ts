/**
 * The clause each finding code cites: a section that exists in RFC 8216 or draft-pantos-hls-rfc8216bis (their
 * tables of contents below, the draft's as of -22, May 2026), Apple's authoring specification by section name, or
 * one of the few other documents named; and a link for each.
 */
import assert from 'node:assert/strict';
import '../../src/inspector/checks/index';
import { clauseUri, codeInfo, registeredCodes } from '../../src/inspector/registry';

/** RFC 8216's sections the inspector may cite (its table of contents). */
const RFC_8216: Record<string, string> = {
  '3': 'Media Segments',
  '3.1': 'Supported Media Segment Formats',
  '3.2': 'MPEG-2 Transport Streams',
  '3.3': 'Fragmented MPEG-4',
  '3.4': 'Packed Audio',
  '3.5': 'WebVTT',
  '4': 'Playlists',
  '4.1': 'Definition of a Playlist',
  '4.2': 'Attribute Lists',
  '4.3': 'Playlist Tags',
  '4.3.1': 'Basic Tags',
  '4.3.1.1': 'EXTM3U',
  '4.3.1.2': 'EXT-X-VERSION',
  '4.3.2': 'Media Segment Tags',
  '4.3.2.1': 'EXTINF',
  '4.3.2.2': 'EXT-X-BYTERANGE',
  '4.3.2.3': 'EXT-X-DISCONTINUITY',
  '4.3.2.4': 'EXT-X-KEY',
  '4.3.2.5': 'EXT-X-MAP',
  '4.3.2.6': 'EXT-X-PROGRAM-DATE-TIME',
  '4.3.2.7': 'EXT-X-DATERANGE',
  '4.3.2.7.1': 'Mapping SCTE-35 into EXT-X-DATERANGE',
  '4.3.3': 'Media Playlist Tags',
  '4.3.3.1': 'EXT-X-TARGETDURATION',
  '4.3.3.2': 'EXT-X-MEDIA-SEQUENCE',
  '4.3.3.3': 'EXT-X-DISCONTINUITY-SEQUENCE',
  '4.3.3.4': 'EXT-X-ENDLIST',
  '4.3.3.5': 'EXT-X-PLAYLIST-TYPE',
  '4.3.3.6': 'EXT-X-I-FRAMES-ONLY',
  '4.3.4': 'Master Playlist Tags',
  '4.3.4.1': 'EXT-X-MEDIA',
  '4.3.4.1.1': 'Rendition Groups',
  '4.3.4.2': 'EXT-X-STREAM-INF',
  '4.3.4.2.1': 'Alternative Renditions',
  '4.3.4.3': 'EXT-X-I-FRAME-STREAM-INF',
  '4.3.4.4': 'EXT-X-SESSION-DATA',
  '4.3.4.5': 'EXT-X-SESSION-KEY',
  '4.3.5': 'Media or Master Playlist Tags',
  '4.3.5.1': 'EXT-X-INDEPENDENT-SEGMENTS',
  '4.3.5.2': 'EXT-X-START',
  '5': 'Key Files',
  '5.1': 'Structure of Key Files',
  '5.2': 'IV for AES-128',
  '6': 'Client/Server Responsibilities',
  '6.2': 'Server Responsibilities',
  '6.2.1': 'General Server Responsibilities',
  '6.2.2': 'Live Playlists',
  '6.2.3': 'Encrypting Media Segments',
  '6.2.4': 'Providing Variant Streams',
  '6.3': 'Client Responsibilities',
  '6.3.1': 'General Client Responsibilities',
  '6.3.2': 'Loading the Media Playlist File',
  '6.3.3': 'Playing the Media Playlist File',
  '6.3.4': 'Reloading the Media Playlist File',
  '6.3.5': 'Determining the Next Segment to Load',
  '6.3.6': 'Decrypting Encrypted Media Segments',
  '7': 'Protocol Version Compatibility',
};

/** draft-pantos-hls-rfc8216bis-22's sections the inspector may cite. */
const RFC_8216_BIS: Record<string, string> = {
  '3': 'Media Segments',
  '3.2': 'Partial Segments',
  '4.4.3.7': 'EXT-X-PART-INF',
  '4.4.3.8': 'EXT-X-SERVER-CONTROL',
  '4.4.4.9': 'EXT-X-PART',
  '4.4.5.2': 'EXT-X-SKIP',
  '4.4.5.3': 'EXT-X-PRELOAD-HINT',
  '4.4.5.4': 'EXT-X-RENDITION-REPORT',
  '4.4.6.1': 'EXT-X-MEDIA',
  '4.4.6.2': 'EXT-X-STREAM-INF',
  '6.2.1': 'General Server Responsibilities',
  '6.2.2': 'Live Playlists',
  '6.2.5': 'Delivery Directives Interface',
  '6.2.5.1': 'Playlist Delta Updates',
  '6.2.5.2': 'Blocking Playlist Reload',
  '6.2.6': 'Providing Preload Hints',
};

/** What a finding cites besides the two: each by name, an optional note in parentheses. */
const OTHERS = [
  /^Apple HLS Authoring Spec, [a-z][a-z -]*( \([^()]+\))?$/,
  /^ISO\/IEC 14496-12 \([^()]+\)$/,
  /^Fetch standard \(CORS\)$/,
  /^common CUE-OUT\/CUE-IN practice$/,
];

/** The sections a clause part cites (`RFC 8216 4.3.2.5, 3.3 (note)`), or undefined when it is not of that form. */
function sections(part: string, name: string): string[] | undefined {
  const m = new RegExp(`^${name} (\\d+(?:\\.\\d+)*(?:, \\d+(?:\\.\\d+)*)*)(?: \\([^()]+\\))?$`).exec(part);
  return m ? m[1]!.split(', ') : undefined;
}

/** Why a clause is not well formed, or undefined. */
function clauseProblem(clause: string): string | undefined {
  for (const part of clause.split('; ')) {
    const rfc = sections(part, 'RFC 8216');
    const bis = sections(part, 'rfc8216bis');
    if (rfc) {
      const unknown = rfc.filter((s) => !RFC_8216[s]);
      if (unknown.length > 0) return `RFC 8216 has no section ${unknown.join(', ')}`;
    } else if (bis) {
      const unknown = bis.filter((s) => !RFC_8216_BIS[s]);
      if (unknown.length > 0) return `rfc8216bis has no section ${unknown.join(', ')} here`;
    } else if (!OTHERS.some((re) => re.test(part))) {
      return `"${part}" is none of: RFC 8216 <section>, rfc8216bis <section>, Apple HLS Authoring Spec, <section name>`;
    }
  }
  return undefined;
}

describe('inspector: every finding code cites a section that exists, in a shape the report links', () => {
  // The content family (src/app/inspect/contentFamily.ts, registered from outside when a test loads it) cites
  // loudness and picture standards, not the HLS texts.
  const builtIn = (): string[] =>
    registeredCodes().filter((code) => !code.startsWith('TEST-') && codeInfo(code)?.family !== 'content');

  it('each clause is RFC 8216 / rfc8216bis sections of their tables of contents, or Apple by section name', () => {
    const wrong = builtIn()
      .map((code) => [code, clauseProblem(codeInfo(code)!.clause)] as const)
      .filter(([, problem]) => problem !== undefined);
    assert.deepEqual(wrong, []);
  });

  it('each clause has a link, and an RFC or draft section links to that section', () => {
    for (const code of builtIn()) {
      const clause = codeInfo(code)!.clause;
      const uri = clauseUri(clause);
      assert.ok(uri, `${code}: ${clause} has no link`);
      const first = /^(RFC 8216|rfc8216bis) (\d+(?:\.\d+)*)/.exec(clause);
      if (first) assert.ok(uri.endsWith(`#section-${first[2]}`), `${code}: ${uri}`);
    }
  });

  it('codes cite the section of their rule (checked against the texts: key length, media sequence, unknown tags, LL-HLS)', () => {
    const titles = (code: string): string[] => {
      const clause = codeInfo(code)!.clause;
      return clause
        .split('; ')
        .flatMap((part) => [
          ...(sections(part, 'RFC 8216') ?? []).map((s) => RFC_8216[s]!),
          ...(sections(part, 'rfc8216bis') ?? []).map((s) => RFC_8216_BIS[s]!),
        ]);
    };
    assert.deepEqual(titles('HLS-KEY-INVALID'), ['Structure of Key Files']);
    assert.deepEqual(titles('HLS-MEDIA-SEQUENCE-REGRESSED'), ['General Server Responsibilities', 'Live Playlists']);
    assert.deepEqual(titles('HLS-UNKNOWN-TAG'), ['Definition of a Playlist', 'General Client Responsibilities']);
    assert.deepEqual(titles('HLS-AUDIO-GAP'), ['Media Segments']);
    assert.deepEqual(titles('HLS-LL-BLOCKING-RELOAD-NOT-HELD'), ['Blocking Playlist Reload']);
    assert.deepEqual(titles('HLS-LL-DELTA-UPDATE-INVALID'), ['Playlist Delta Updates', 'EXT-X-SKIP']);
    assert.deepEqual(titles('HLS-LL-INDEPENDENT-PART-NO-SYNC'), ['EXT-X-PART']);
    assert.deepEqual(titles('HLS-LL-HOLD-BACK'), ['EXT-X-SERVER-CONTROL']);
  });

  it('the shape check itself refuses what it should', () => {
    assert.equal(clauseProblem('RFC 8216 4.3.2.5, 3.3'), undefined);
    assert.match(clauseProblem('RFC 8216 4.3.2.8')!, /no section 4\.3\.2\.8/);
    assert.match(clauseProblem('rfc8216bis 4.3.3.7')!, /no section 4\.3\.3\.7/);
    assert.match(clauseProblem('RFC8216 4.1')!, /is none of/);
    assert.match(clauseProblem('Apple HLS Authoring Spec 1.5')!, /is none of/);
  });
});
