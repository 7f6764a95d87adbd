/**
 * The check families from small hand-made models and fixtures, without ffmpeg: every registered finding code is
 * produced here at least once (the last test checks that), each by the input that should produce it, and valid
 * input produces none of them. Playlist texts go through `playlistProblems` (what an open .m3u8 shows too);
 * measured facts are written into the model as the reader would (model.ts); the reading codes come from
 * `inspect` against a loopback server of synthetic bytes, and the single-file codes from an MP4 written in-process.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BufferTarget, EncodedAudioPacketSource, EncodedPacket, Mp4OutputFormat, Output } from 'mediabunny';
import '../../src/inspector/checks/index';
import { failing, toJunit, toSarif } from '../../src/inspector/ciOutput';
import { finding, outsideCode, type Finding } from '../../src/inspector/findings';
import { parsePlaylist } from '../../src/inspector/hls';
import { inspect } from '../../src/inspector/inspect';
import type { MediaFacts } from '../../src/inspector/mediaFacts';
import type { Declared, Delivery, MediaPlaylistModel, PlaylistRole, StreamModel } from '../../src/inspector/model';
import { playlistProblems } from '../../src/inspector/playlistProblems';
import { codeInfo, registerFamily, registeredCodes, runChecks } from '../../src/inspector/registry';
import type { Report } from '../../src/inspector/report';
import { nodeFetch } from '../../src/inspector/source';
import type * as HLS from 'hls-parser';

const exercised = new Set<string>();

/** Asserts that `code` is among the found codes (and counts it as exercised); returns the matching ones. */
function expectCode<T extends { code: string }>(found: readonly T[], code: string): T[] {
  const hits = found.filter((f) => f.code === code);
  assert.ok(hits.length > 0, `expected ${code} in ${JSON.stringify(found.map((f) => f.code))}`);
  exercised.add(code);
  return hits;
}

function textCodes(text: string): string[] {
  return playlistProblems(text).map((p) => p.code);
}

// ---- model builders: what the reader would have filled ----

function media(over: Partial<MediaFacts> = {}): MediaFacts {
  return {
    formatName: 'mpegts',
    video: {
      codec: 'h264',
      codecString: 'avc1.64001e',
      profile: 'High',
      level: 30,
      width: 320,
      height: 180,
      frameRate: 25,
    },
    audio: { codec: 'aac', codecString: 'mp4a.40.2', profile: 'LC', sampleRate: 48000, channels: 2 },
    start: 0,
    end: 2,
    videoStart: 0,
    videoEnd: 2,
    audioStart: 0,
    startsWithKeyframe: true,
    keyframes: [0, 1],
    videoPackets: 50,
    bytes: 100_000,
    ...over,
  };
}

/** A media playlist of `durations` (EXTINF), VOD unless `live`. */
function mediaText(
  durations: number[],
  o: { target?: number; live?: boolean; sequence?: number; pdt?: boolean } = {},
): string {
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${o.target ?? 2}`,
    `#EXT-X-MEDIA-SEQUENCE:${o.sequence ?? 0}`,
  ];
  let t = Date.parse('2026-01-01T00:00:00Z');
  durations.forEach((d, i) => {
    if (o.pdt) lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(t).toISOString()}`);
    lines.push(`#EXTINF:${d.toFixed(3)},`, `s${(o.sequence ?? 0) + i}.ts`);
    t += d * 1000;
  });
  if (!o.live) lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

function playlist(
  name: string,
  text: string,
  o: {
    role?: PlaylistRole;
    declared?: Declared;
    medias?: Array<MediaFacts | undefined>;
    sizes?: number[];
    delivery?: Delivery;
  } = {},
): MediaPlaylistModel {
  const parsed = parsePlaylist(text) as HLS.types.MediaPlaylist;
  return {
    name,
    address: `http://127.0.0.1:9/${name}`,
    role: o.role ?? 'variant',
    declared: o.declared ?? {},
    viaMaster: true,
    text,
    playlist: parsed,
    readAt: 0,
    reloads: [],
    ...(o.delivery ? { delivery: o.delivery } : {}),
    segments: parsed.segments.map((s, i) => ({
      uri: s.uri,
      sequence: s.mediaSequenceNumber,
      duration: s.duration,
      discontinuity: s.discontinuity === true,
      ...(o.sizes?.[i] !== undefined ? { size: o.sizes[i] } : {}),
      ...(o.medias?.[i] ? { media: o.medias[i] } : {}),
    })),
  };
}

function stream(playlists: MediaPlaylistModel[], masterText?: string): StreamModel {
  return {
    address: 'http://127.0.0.1:9/master.m3u8',
    ...(masterText
      ? { master: { text: masterText, playlist: parsePlaylist(masterText) as HLS.types.MasterPlaylist } }
      : {}),
    playlists,
    checkedAt: 0,
    segmentsReadPerPlaylist: 30,
  };
}

/** One AAC frame at 48 kHz (s). */
const AAC_FRAME = 1024 / 48_000;

/** Two-second segments of video read one after the other, each starting where the last ended. */
function steady(count: number, over: (i: number) => Partial<MediaFacts> = () => ({})): MediaFacts[] {
  return Array.from({ length: count }, (_, i) =>
    media({
      start: 2 * i,
      end: 2 * i + 2,
      videoStart: 2 * i,
      videoEnd: 2 * i + 2,
      audioStart: 2 * i,
      audioEnd: 2 * i + 2,
      audioFrame: AAC_FRAME,
      keyframes: [2 * i, 2 * i + 1],
      ...over(i),
    }),
  );
}

const GOOD_MASTER = [
  '#EXTM3U',
  '#EXT-X-VERSION:6',
  '#EXT-X-INDEPENDENT-SEGMENTS',
  '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="a/en.m3u8"',
  '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Deutsch",LANGUAGE="de",DEFAULT=NO,AUTOSELECT=YES,CHANNELS="2",URI="a/de.m3u8"',
  '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",URI="s/en.m3u8"',
  '#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English",INSTREAM-ID="CC1"',
  '#EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="News"',
  '#EXT-X-SESSION-KEY:METHOD=AES-128,URI="k.bin"',
  '#EXT-X-STREAM-INF:BANDWIDTH=440000,AVERAGE-BANDWIDTH=400000,CODECS="avc1.64001e,mp4a.40.2",RESOLUTION=320x180,FRAME-RATE=25,AUDIO="aud",SUBTITLES="subs",CLOSED-CAPTIONS="cc"',
  'v0.m3u8',
  '#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=80000,CODECS="avc1.64001e",RESOLUTION=320x180,URI="v0_i.m3u8"',
  '',
].join('\n');

describe('inspector checks: each family from a small model or fixture (no ffmpeg)', () => {
  describe('playlist syntax and tag rules, master and rendition groups (text)', () => {
    it('finds nothing in a complete master playlist and a complete VOD media playlist', () => {
      assert.deepEqual(textCodes(GOOD_MASTER), []);
      assert.deepEqual(textCodes(mediaText([2, 2, 2])), []);
    });

    it('names the basic rules: header, target duration, EXTINF over the target, version, misplaced and repeated tags, URI, attributes, unknown tags', () => {
      expectCode(playlistProblems('#EXTINF:2,\na.ts\n'), 'HLS-PLAYLIST-HEADER');
      expectCode(playlistProblems('#EXTM3U\n#EXTINF:2,\na.ts\n'), 'HLS-TARGETDURATION-MISSING');
      expectCode(
        playlistProblems('#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:3,\na.ts\n'),
        'HLS-SEGMENT-LONGER-THAN-TARGET',
      );
      expectCode(playlistProblems('#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:1.5,\na.ts\n'), 'HLS-VERSION-TOO-LOW');
      const twice = playlistProblems(
        '#EXTM3U\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-TARGETDURATION:2\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXTINF:2,\na.ts\n',
      );
      assert.equal(expectCode(twice, 'HLS-TAG-MISPLACED')[0]!.line, 3);
      expectCode(playlistProblems('#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n'), 'HLS-URI-MISSING');
      expectCode(playlistProblems('#EXTM3U\n#EXT-X-STREAM-INF:RESOLUTION=1x1\nv.m3u8\n'), 'HLS-ATTRIBUTE-INVALID');
      expectCode(
        playlistProblems('#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MADE-UP:1\n#EXTINF:2,\na.ts\n'),
        'HLS-UNKNOWN-TAG',
      );
    });

    it('a VOD playlist without EXT-X-ENDLIST', () => {
      const text = mediaText([2, 2])
        .replace('#EXT-X-ENDLIST\n', '')
        .replace('#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:VOD');
      const [problem] = expectCode(playlistProblems(text), 'HLS-ENDLIST-MISSING');
      assert.equal(problem!.line, 3);
      assert.deepEqual(textCodes(text.replace('#EXT-X-PLAYLIST-TYPE:VOD', '#EXT-X-PLAYLIST-TYPE:EVENT')), []);
    });

    it('rendition groups: a group that does not resolve, two defaults, a NAME twice, attribute rules, CHANNELS', () => {
      const broken = GOOD_MASTER.replace('AUDIO="aud"', 'AUDIO="audio"');
      assert.match(expectCode(playlistProblems(broken), 'HLS-RENDITION-GROUP-MISSING')[0]!.message, /AUDIO="audio"/);
      expectCode(playlistProblems(GOOD_MASTER.replace('DEFAULT=NO', 'DEFAULT=YES')), 'HLS-RENDITION-DEFAULT');
      expectCode(
        playlistProblems(GOOD_MASTER.replace('NAME="Deutsch"', 'NAME="English"')),
        'HLS-RENDITION-NAME-DUPLICATE',
      );
      for (const [from, to, why] of [
        ['URI="s/en.m3u8"', 'FORCED=YES', /SUBTITLES rendition needs a URI/],
        ['INSTREAM-ID="CC1"', 'INSTREAM-ID="CC9"', /INSTREAM-ID CC1 to CC4/],
        ['LANGUAGE="de"', 'LANGUAGE="German!"', /LANGUAGE must be a language tag/],
        ['DEFAULT=YES,AUTOSELECT=YES', 'DEFAULT=YES,AUTOSELECT=NO', /DEFAULT=YES must have AUTOSELECT=YES/],
      ] as const) {
        const found = expectCode(playlistProblems(GOOD_MASTER.replace(from, to)), 'HLS-RENDITION-INVALID');
        assert.ok(
          found.some((p) => why.test(p.message)),
          `${to}: ${found.map((p) => p.message).join(' | ')}`,
        );
      }
      expectCode(
        playlistProblems(GOOD_MASTER.replace(',CHANNELS="2",URI="a/de', ',URI="a/de')),
        'HLS-RENDITION-CHANNELS-MISSING',
      );
    });

    it('variant attributes: CODECS, FRAME-RATE and AVERAGE-BANDWIDTH missing, no I-frame playlist', () => {
      const bare =
        '#EXTM3U\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=320x180\nv0.m3u8\n';
      const found = playlistProblems(bare);
      const codecs = expectCode(found, 'HLS-CODECS-MISSING');
      assert.equal(codecs[0]!.severity, 'warning');
      assert.equal(codecs[0]!.line, 2);
      expectCode(found, 'HLS-FRAME-RATE-MISSING');
      expectCode(found, 'HLS-AVERAGE-BANDWIDTH-MISSING');
      expectCode(found, 'HLS-IFRAME-PLAYLIST-MISSING');
      // In the inspector, a problem on an EXT-X-STREAM-INF line is about the variant that follows it.
      const v0 = playlist('v0.m3u8', mediaText([2]));
      const missing = runChecks(stream([v0], bare)).filter((f) => f.code === 'HLS-CODECS-MISSING');
      assert.deepEqual(
        missing.map((f) => [f.variant, f.message]),
        [
          [
            'v0.m3u8',
            'This variant declares no CODECS, so players must download it to know if they can play it. (line 3)',
          ],
        ],
      );
    });

    it('session data and session keys', () => {
      expectCode(
        playlistProblems(GOOD_MASTER.replace('VALUE="News"', 'VALUE="News",URI="t.json"')),
        'HLS-SESSION-DATA-INVALID',
      );
      const twice = GOOD_MASTER.replace(
        '#EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="News"',
        '#EXT-X-SESSION-DATA:DATA-ID="x",VALUE="1"\n#EXT-X-SESSION-DATA:DATA-ID="x",VALUE="2"',
      );
      assert.match(expectCode(playlistProblems(twice), 'HLS-SESSION-DATA-INVALID')[0]!.message, /given twice/);
      expectCode(
        playlistProblems(GOOD_MASTER.replace('METHOD=AES-128,URI="k.bin"', 'METHOD=NONE')),
        'HLS-SESSION-KEY-INVALID',
      );
    });

    it('date ranges and SCTE-35 markers', () => {
      const base = mediaText([2, 2]);
      const withTag = (tag: string): string => base.replace('#EXTINF', `${tag}\n#EXTINF`);
      assert.deepEqual(
        textCodes(withTag('#EXT-X-DATERANGE:ID="ad1",START-DATE="2026-01-01T00:00:00Z",DURATION=30')),
        [],
      );
      expectCode(
        playlistProblems(
          withTag('#EXT-X-DATERANGE:ID="ad1",START-DATE="2026-01-01T00:00:10Z",END-DATE="2026-01-01T00:00:00Z"'),
        ),
        'HLS-DATERANGE-INVALID',
      );
      expectCode(
        playlistProblems(withTag('#EXT-X-DATERANGE:START-DATE="2026-01-01T00:00:00Z"')),
        'HLS-DATERANGE-INVALID',
      );
      expectCode(
        playlistProblems(withTag('#EXT-X-DATERANGE:ID="a",START-DATE="2026-01-01T00:00:00Z",END-ON-NEXT=YES')),
        'HLS-DATERANGE-INVALID',
      );
      expectCode(playlistProblems(withTag('#EXT-X-CUE-IN')), 'HLS-SCTE35-UNPAIRED');
      assert.deepEqual(textCodes(withTag('#EXT-X-CUE-OUT:DURATION=30\n#EXTINF:2,\nx.ts\n#EXT-X-CUE-IN')), []);
    });

    it('low-latency HLS: PART-INF, parts longer than PART-TARGET, hold-backs, preload hints, rendition reports, skips', () => {
      const ll = (extra: string, control = 'CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.0'): string =>
        [
          '#EXTM3U',
          '#EXT-X-VERSION:9',
          '#EXT-X-TARGETDURATION:2',
          `#EXT-X-SERVER-CONTROL:${control}`,
          '#EXT-X-PART-INF:PART-TARGET=0.5',
          '#EXT-X-MEDIA-SEQUENCE:10',
          '#EXT-X-PART:DURATION=0.5,URI="p10.0.m4s",INDEPENDENT=YES',
          '#EXTINF:2.0,',
          's10.m4s',
          extra,
          '',
        ].join('\n');
      assert.deepEqual(
        textCodes(
          ll(
            '#EXT-X-PRELOAD-HINT:TYPE=PART,URI="p11.0.m4s"\n#EXT-X-RENDITION-REPORT:URI="../a/l.m3u8",LAST-MSN=10,LAST-PART=0',
          ),
        ),
        [],
      );
      expectCode(playlistProblems(ll('').replace('#EXT-X-PART-INF:PART-TARGET=0.5\n', '')), 'HLS-LL-PART-INF-MISSING');
      expectCode(playlistProblems(ll('#EXT-X-PART:DURATION=0.9,URI="p11.0.m4s"')), 'HLS-LL-PART-TOO-LONG');
      expectCode(playlistProblems(ll('', 'CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=0.6')), 'HLS-LL-HOLD-BACK');
      expectCode(playlistProblems(ll('', 'CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.0,HOLD-BACK=3')), 'HLS-LL-HOLD-BACK');
      expectCode(playlistProblems(ll('#EXT-X-PRELOAD-HINT:TYPE=SEGMENT,URI="x"')), 'HLS-LL-PRELOAD-HINT-INVALID');
      expectCode(playlistProblems(ll('#EXT-X-RENDITION-REPORT:LAST-MSN=10')), 'HLS-LL-RENDITION-REPORT-INVALID');
      expectCode(
        playlistProblems(
          ll('').replace('#EXT-X-MEDIA-SEQUENCE:10', '#EXT-X-MEDIA-SEQUENCE:10\n#EXT-X-SKIP:SKIPPED-SEGMENTS=3'),
        ),
        'HLS-LL-SKIP-INVALID',
      );
    });
  });

  describe('measured against declared, segments and timing, media, live, delivery (models)', () => {
    it('low-latency HLS as served: a blocking reload not held, late or refused; a delta update that disagrees; an INDEPENDENT part without a sync frame', () => {
      /** A live LL-HLS playlist of `published` one-second parts, two per segment; `skipped` segments left out. */
      const live = (published: number, o: { skipped?: number; listFrom?: number } = {}): string => {
        const lines = [
          '#EXTM3U',
          '#EXT-X-VERSION:9',
          '#EXT-X-TARGETDURATION:2',
          '#EXT-X-PART-INF:PART-TARGET=1',
          '#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3,CAN-SKIP-UNTIL=12',
          '#EXT-X-MEDIA-SEQUENCE:0',
          '#EXT-X-MAP:URI="init.mp4"',
        ];
        if (o.skipped !== undefined) lines.push(`#EXT-X-SKIP:SKIPPED-SEGMENTS=${o.skipped}`);
        for (let n = o.listFrom ?? o.skipped ?? 0; n < Math.floor(published / 2); n++) {
          lines.push(`#EXT-X-PART:DURATION=1,URI="s${n}.m4s",BYTERANGE=1000@0,INDEPENDENT=YES`);
          lines.push(`#EXT-X-PART:DURATION=1,URI="s${n}.m4s",BYTERANGE=1000@1000`, '#EXTINF:2,', `s${n}.m4s`);
        }
        if (published % 2 === 1)
          lines.push(`#EXT-X-PART:DURATION=1,URI="p${(published - 1) / 2}.0.m4s",INDEPENDENT=YES`);
        return `${lines.join('\n')}\n`;
      };
      const parsed = (text: string): HLS.types.MediaPlaylist => parsePlaylist(text) as HLS.types.MediaPlaylist;
      const served = (lowLatency: Partial<NonNullable<MediaPlaylistModel['lowLatency']>>): Finding[] => {
        const p = playlist('v0.m3u8', live(15));
        p.lowLatency = { partTarget: 1, targetDuration: 2, parts: [], ...lowLatency };
        return runChecks(stream([p])).filter((f) => f.family === 'llhls');
      };
      const codes = (found: Finding[]): string[] => found.map((f) => f.code);
      // Held and answered at once; a full playlist of 16 s whose delta skips the one segment past 12 s; parts in sync.
      const full = live(16);
      const good = {
        blocking: { msn: 7, part: 1, waitedMs: 120, holdsAsked: true },
        delta: {
          skip: 'YES' as const,
          fullText: full,
          full: parsed(full),
          deltaText: live(16, { skipped: 1 }),
          delta: parsed(live(16, { skipped: 1 })),
        },
        parts: [{ uri: 's6.m4s', msn: 6, index: 0, media: { hasVideo: true, startsWithKeyframe: true } }],
      };
      assert.deepEqual(codes(served(good)), []);

      const [early] = expectCode(
        served({ blocking: { msn: 7, part: 1, waitedMs: 5, holdsAsked: false, answeredUpTo: { msn: 7, parts: 1 } } }),
        'HLS-LL-BLOCKING-RELOAD-NOT-HELD',
      );
      assert.match(early!.message, /part 7\.1 was answered after 0\.01 s with a playlist that ends at part 7\.0/);
      assert.deepEqual(codes(served({ blocking: { msn: 7, part: 1, waitedMs: 3, failure: 'HTTP 503' } })), [
        'HLS-LL-BLOCKING-RELOAD-NOT-HELD',
      ]);
      const [late] = expectCode(
        served({ blocking: { msn: 7, part: 1, waitedMs: 4000, holdsAsked: true } }),
        'HLS-LL-BLOCKING-RELOAD-LATE',
      );
      assert.match(late!.message, /answered after 4\.00 s, more than 3 × PART-TARGET \(3 s\)/);
      assert.deepEqual(
        codes(served({ blocking: { msn: 7, part: 1, waitedMs: 10_000, failure: 'no data for 10 s' } })),
        ['HLS-LL-BLOCKING-RELOAD-LATE'],
      );

      const delta = (text: string) => ({ ...good.delta, deltaText: text, delta: parsed(text) });
      const [noSkip] = expectCode(served({ delta: delta(full) }), 'HLS-LL-DELTA-UPDATE-INVALID');
      assert.match(noSkip!.message, /sent the full playlist without EXT-X-SKIP/);
      // SKIPPED-SEGMENTS says 2 but the list starts at segment 1: every segment is numbered one too high.
      const [wrongCount] = expectCode(
        served({ delta: delta(live(16, { skipped: 2, listFrom: 1 })) }),
        'HLS-LL-DELTA-UPDATE-INVALID',
      );
      assert.match(wrongCount!.message, /names s1\.m4s as segment 2; the full playlist has s2\.m4s there/);
      const [tooMuch] = expectCode(served({ delta: delta(live(16, { skipped: 3 })) }), 'HLS-LL-DELTA-UPDATE-INVALID');
      assert.match(
        tooMuch!.message,
        /skips s2\.m4s, which starts 12 s from the end of the playlist, within CAN-SKIP-UNTIL \(12 s\)/,
      );
      // A playlist no longer than CAN-SKIP-UNTIL has nothing to skip: the full playlist is a right answer.
      const short = live(12);
      assert.deepEqual(
        codes(
          served({
            delta: { skip: 'YES', fullText: short, full: parsed(short), deltaText: short, delta: parsed(short) },
          }),
        ),
        [],
      );

      const [noSync] = expectCode(
        served({ parts: [{ uri: 's6.m4s', msn: 6, index: 1, media: { hasVideo: true, startsWithKeyframe: false } }] }),
        'HLS-LL-INDEPENDENT-PART-NO-SYNC',
      );
      assert.equal(noSync!.segment, 's6.m4s');
      assert.match(
        noSync!.message,
        /Part 6\.1 \(s6\.m4s\) is marked INDEPENDENT=YES but its video does not start with a sync frame/,
      );
      assert.deepEqual(
        codes(
          served({
            parts: [{ uri: 'a.m4s', msn: 6, index: 1, media: { hasVideo: false, startsWithKeyframe: false } }],
          }),
        ),
        [],
      );
      assert.deepEqual(codes(served({ parts: [{ uri: 'x.m4s', msn: 6, index: 1, failure: 'HTTP 404' }] })), [
        'HLS-LL-INDEPENDENT-PART-NO-SYNC',
      ]);
    });

    const declared: Declared = {
      bandwidth: 440_000,
      averageBandwidth: 400_000,
      resolution: '320x180',
      codecs: 'avc1.64001e,mp4a.40.2',
      frameRate: 25,
    };
    // 100,000 bytes per 2 s: 400 kb/s in every segment.
    const sizes = [100_000, 100_000, 100_000];

    it('a ladder as declared: no findings from the model checks', () => {
      const v0 = playlist('v0.m3u8', mediaText([2, 2, 2]), { declared, sizes, medias: steady(3) });
      const v1 = playlist('v1.m3u8', mediaText([2, 2, 2]), { declared, sizes, medias: steady(3) });
      const found = runChecks(
        stream(
          [v0, v1],
          GOOD_MASTER.replace(
            '#EXT-X-I-FRAME',
            '#EXT-X-STREAM-INF:BANDWIDTH=440000,AVERAGE-BANDWIDTH=400000,CODECS="avc1.64001e,mp4a.40.2",RESOLUTION=320x180,FRAME-RATE=25,AUDIO="aud"\nv1.m3u8\n#EXT-X-I-FRAME',
          ),
        ),
      );
      assert.deepEqual(
        found.map((f) => f.code),
        [],
      );
    });

    it('BANDWIDTH under or over the peak, AVERAGE-BANDWIDTH, RESOLUTION, FRAME-RATE and CODECS against the media', () => {
      const check = (d: Declared, s = sizes, m = steady(3)): Finding[] =>
        runChecks(stream([playlist('v0.m3u8', mediaText([2, 2, 2]), { declared: d, sizes: s, medias: m })]));
      assert.match(
        expectCode(check({ ...declared, bandwidth: 300_000 }), 'HLS-BANDWIDTH-MISMATCH')[0]!.message,
        /peaks at 400 kb\/s/,
      );
      expectCode(check({ ...declared, bandwidth: 800_000 }), 'HLS-BANDWIDTH-OVERSTATED');
      expectCode(check({ ...declared, averageBandwidth: 200_000 }), 'HLS-AVERAGE-BANDWIDTH-MISMATCH');
      expectCode(check({ ...declared, resolution: '640x360' }), 'HLS-RESOLUTION-MISMATCH');
      expectCode(check({ ...declared, frameRate: 30 }), 'HLS-FRAME-RATE-MISMATCH');
      expectCode(check({ ...declared, codecs: 'avc1.42e01e' }), 'HLS-CODECS-MISMATCH');
    });

    it('TARGETDURATION across variants, EXT-X-INDEPENDENT-SEGMENTS when every segment starts with a keyframe', () => {
      const v0 = playlist('v0.m3u8', mediaText([2, 2], { target: 2 }), { medias: steady(2) });
      const v1 = playlist('v1.m3u8', mediaText([2, 2], { target: 4 }), { medias: steady(2) });
      const master = '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv0.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv1.m3u8\n';
      const found = runChecks(stream([v0, v1], master));
      assert.match(expectCode(found, 'HLS-TARGETDURATION-DIFFERS')[0]!.message, /v0\.m3u8 2 s, v1\.m3u8 4 s/);
      expectCode(found, 'HLS-INDEPENDENT-SEGMENTS-MISSING');
    });

    it('an 11 s segment labelled 6 s: EXTINF and the target duration, not bandwidth', () => {
      const medias = [
        media({ start: 0, end: 6, videoStart: 0, videoEnd: 6, keyframes: [0, 2, 4] }),
        media({ start: 6, end: 17, videoStart: 6, videoEnd: 17, keyframes: [6, 8, 10, 12, 14, 16] }),
      ];
      const found = runChecks(stream([playlist('v0.m3u8', mediaText([6, 6], { target: 6 }), { medias })]));
      assert.match(
        expectCode(found, 'HLS-EXTINF-MISMATCH')[0]!.message,
        /s1\.ts holds 11 s of media, its EXTINF says 6 s/,
      );
      assert.equal(expectCode(found, 'HLS-SEGMENT-LONGER-THAN-TARGET')[0]!.segment, 's1.ts');
      assert.ok(!found.some((f) => f.code.includes('BANDWIDTH')));
    });

    it('keyframes: a segment not starting with an IDR, an interval over 2 s (saying what it was measured from), variants not aligned', () => {
      const late = steady(2, (i) => (i === 1 ? { startsWithKeyframe: false, keyframes: [2.5] } : {}));
      expectCode(
        runChecks(stream([playlist('v0.m3u8', mediaText([2, 2]), { medias: late })])),
        'HLS-SEGMENT-NOT-IDR-START',
      );
      const gop3 = Array.from({ length: 2 }, (_, i) =>
        media({ start: 6 * i, end: 6 * i + 6, videoStart: 6 * i, videoEnd: 6 * i + 6, keyframes: [6 * i, 6 * i + 3] }),
      );
      const [interval] = expectCode(
        runChecks(stream([playlist('v0.m3u8', mediaText([6, 6], { target: 6 }), { medias: gop3 })])),
        'HLS-KEYFRAME-INTERVAL',
      );
      assert.match(interval!.message, /measured in 2 of 2 segment\(s\)/);
      const a = playlist('v0.m3u8', mediaText([2, 2]), { medias: steady(2) });
      const b = playlist('v1.m3u8', mediaText([2, 2]), {
        medias: steady(2, () => ({ keyframes: [] })).map((m, i) => ({ ...m, keyframes: [2 * i + 0.5] })),
      });
      expectCode(runChecks(stream([a, b])), 'HLS-KEYFRAMES-NOT-ALIGNED');
    });

    it('a 500 s timestamp jump and a codec change without EXT-X-DISCONTINUITY; none with it', () => {
      const jump = steady(3, (i) =>
        i === 2 ? { start: 504, end: 506, videoStart: 504, videoEnd: 506, audioStart: 504, keyframes: [504, 505] } : {},
      );
      const text = mediaText([2, 2, 2]);
      const [found] = expectCode(
        runChecks(stream([playlist('v0.m3u8', text, { medias: jump })])),
        'HLS-TIMESTAMP-JUMP',
      );
      assert.equal(found!.segment, 's2.ts');
      assert.match(found!.message, /a jump of 500 s/);
      const marked = text.replace('#EXTINF:2.000,\ns2.ts', '#EXT-X-DISCONTINUITY\n#EXTINF:2.000,\ns2.ts');
      assert.deepEqual(
        runChecks(stream([playlist('v0.m3u8', marked, { medias: jump })])).map((f) => f.code),
        [],
      );
      const hevc = steady(2, (i) =>
        i === 1
          ? { video: { codec: 'hevc', codecString: 'hvc1.1.6.L93.B0', width: 320, height: 180, frameRate: 50 } }
          : {},
      );
      const [changed] = expectCode(
        runChecks(stream([playlist('v0.m3u8', mediaText([2, 2]), { medias: hevc })])),
        'HLS-MEDIA-CHANGED-WITHOUT-DISCONTINUITY',
      );
      assert.match(changed!.message, /codecs .* then hvc1.*frame rate 25\.00 then 50\.00/);
    });

    it('audio gaps between segments: 100 ms and a segment without audio are found; a frame, an overlap, a marked discontinuity are not', () => {
      const gapAt = (seconds: number, i: number): Partial<MediaFacts> => (i === 1 ? { audioStart: 2 + seconds } : {});
      const found = (medias: MediaFacts[], text = mediaText([2, 2, 2])): Finding[] =>
        runChecks(stream([playlist('v0.m3u8', text, { medias })])).filter((f) => f.code === 'HLS-AUDIO-GAP');
      const [gap] = expectCode(found(steady(3, (i) => gapAt(0.1, i))), 'HLS-AUDIO-GAP');
      assert.equal(gap!.segment, 's1.ts');
      assert.equal(gap!.severity, 'warning');
      assert.match(
        gap!.message,
        /The audio of segment s1\.ts starts 100 ms after the audio of segment s0\.ts ends \(4\.7 audio frames of 21\.3 ms\)/,
      );
      // Just over the tolerance (1.5 frames, 32 ms) is found, one missing frame (21 ms) is not.
      assert.equal(found(steady(3, (i) => gapAt(1.6 * AAC_FRAME, i))).length, 1);
      assert.deepEqual(found(steady(3, (i) => gapAt(AAC_FRAME, i))), []);
      assert.deepEqual(found(steady(3, (i) => gapAt(-0.05, i))), []);
      const marked = mediaText([2, 2, 2]).replace(
        '#EXTINF:2.000,\ns1.ts',
        '#EXT-X-DISCONTINUITY\n#EXTINF:2.000,\ns1.ts',
      );
      assert.deepEqual(
        found(
          steady(3, (i) => gapAt(0.1, i)),
          marked,
        ),
        [],
      );
      const silent = steady(3, (i) =>
        i === 1 ? { audioStart: undefined, audioEnd: undefined, audio: undefined } : {},
      );
      const [none] = expectCode(found(silent), 'HLS-AUDIO-GAP');
      assert.match(none!.message, /Segment s1\.ts carries no audio, but segment s0\.ts before it does: 2 s of silence/);
      // An audio rendition of its own: the same rule on its audio-only segments.
      const audioOnly = steady(3, (i) => ({
        video: undefined,
        videoStart: undefined,
        videoEnd: undefined,
        keyframes: [],
        ...gapAt(0.2, i),
      }));
      const rendition = playlist('a/en.m3u8', mediaText([2, 2, 2]), { role: 'audio', medias: audioOnly });
      assert.deepEqual(
        runChecks(stream([rendition])).map((f) => [f.code, f.variant, f.segment]),
        [['HLS-AUDIO-GAP', 'a/en.m3u8', 's1.ts']],
      );
    });

    it('audio starting 1 s after the video', () => {
      const medias = steady(2, (i) => (i === 0 ? { audioStart: 1 } : {}));
      const [found] = expectCode(
        runChecks(stream([playlist('v0.m3u8', mediaText([2, 2]), { medias })])),
        'HLS-AUDIO-VIDEO-START-OFFSET',
      );
      assert.match(found!.message, /audio starts 1 s after the video/);
    });

    it('an audio rendition starting 1 s after the video of the first variant', () => {
      const v0 = playlist('v0.m3u8', mediaText([2, 2]), { medias: steady(2) });
      const audioOnly = (start: number): MediaFacts => {
        const {
          video: _video,
          videoStart: _start,
          videoEnd: _end,
          ...rest
        } = media({ start, end: start + 2, audioStart: start, keyframes: [] });
        return rest;
      };
      const late = playlist('a/en.m3u8', mediaText([2, 2]), { role: 'audio', medias: [audioOnly(1), audioOnly(3)] });
      const [found] = expectCode(runChecks(stream([v0, late])), 'HLS-AUDIO-VIDEO-START-OFFSET');
      assert.match(
        found!.message,
        /The audio rendition a\/en\.m3u8 starts at 1 s, the video of v0\.m3u8 at 0 s: 1 s apart/,
      );
      const onTime = playlist('a/en.m3u8', mediaText([2, 2]), { role: 'audio', medias: [audioOnly(0), audioOnly(2)] });
      assert.deepEqual(
        runChecks(stream([v0, onTime])).map((f) => f.code),
        [],
      );
    });

    it("an I-frame playlist's BANDWIDTH under its I-frames' peak (byte ranges)", () => {
      const text = [
        '#EXTM3U',
        '#EXT-X-VERSION:4',
        '#EXT-X-TARGETDURATION:2',
        '#EXT-X-I-FRAMES-ONLY',
        '#EXT-X-BYTERANGE:20000@376',
        '#EXTINF:2,',
        's0.ts',
        '#EXT-X-BYTERANGE:30000@376',
        '#EXTINF:2,',
        's1.ts',
        '#EXT-X-ENDLIST',
        '',
      ].join('\n');
      const iframes = playlist('v0_i.m3u8', text, {
        role: 'iframe',
        declared: { bandwidth: 80_000 },
        sizes: [20_000, 30_000],
      });
      iframes.allSized = true;
      const [found] = expectCode(runChecks(stream([iframes])), 'HLS-IFRAME-BANDWIDTH-MISMATCH');
      assert.match(found!.message, /declares BANDWIDTH 80 kb\/s, but its I-frame s1\.ts peaks at 120 kb\/s/);
      const right = playlist('v0_i.m3u8', text, {
        role: 'iframe',
        declared: { bandwidth: 120_000 },
        sizes: [20_000, 30_000],
      });
      right.allSized = true;
      assert.deepEqual(
        runChecks(stream([right])).map((f) => f.code),
        [],
      );
    });

    it('one rendition shorter than the others', () => {
      const v0 = playlist('v0.m3u8', mediaText([2, 2, 2, 2]));
      const audio = playlist('a/en.m3u8', mediaText([2, 2]), { role: 'audio' });
      const [found] = expectCode(runChecks(stream([v0, audio])), 'HLS-RENDITION-DURATION-DIFFERS');
      assert.equal(found!.variant, 'a/en.m3u8');
    });

    it('fMP4 without EXT-X-MAP, fMP4 that does not read with its map, bytes that are not media, a segment that does not decrypt', () => {
      const unreadable = (u: NonNullable<MediaPlaylistModel['segments'][number]['unreadable']>): Finding[] => {
        const p = playlist('v0.m3u8', mediaText([2]));
        p.segments[0]!.unreadable = u;
        return runChecks(stream([p]));
      };
      expectCode(
        unreadable({ message: 'no moov', leading: 'moof', withInit: false, decrypted: false }),
        'HLS-MAP-MISSING',
      );
      expectCode(
        unreadable({ message: 'track 2 not in init', leading: 'moof', withInit: true, decrypted: false }),
        'HLS-MAP-MISMATCH',
      );
      expectCode(unreadable({ message: 'not a container', withInit: false, decrypted: false }), 'MEDIA-UNDECODABLE');
      expectCode(unreadable({ message: 'not a container', withInit: false, decrypted: true }), 'HLS-DECRYPT-FAILED');
    });

    it('live: stale, sequence going back, fixed tags changing, program date-time drift, missing or far behind, watched too briefly, a VOD without ENDLIST', () => {
      const target = 2;
      const live = (texts: string[], o: { at?: number[]; watched?: number; now?: number } = {}): Finding[] => {
        const p = playlist('v0.m3u8', texts[0]!);
        p.readAt = 0;
        p.watchedSeconds = o.watched ?? 10;
        p.reloads = texts.slice(1).map((text, i) => ({
          at: o.at?.[i] ?? (i + 1) * 1000,
          text,
          playlist: parsePlaylist(text) as HLS.types.MediaPlaylist,
        }));
        return runChecks({ ...stream([p]), checkedAt: o.now ?? 0 });
      };
      const first = mediaText([2, 2, 2], { live: true, sequence: 5, pdt: true });
      const second = mediaText([2, 2, 2], { live: true, sequence: 6, pdt: true });
      assert.deepEqual(
        live([first, second])
          .map((f) => f.code)
          .filter((c) => c !== 'HLS-LIVE-EDGE-BEHIND'),
        [],
      );
      expectCode(
        live([first, first, first, first, first], { at: [1000, 2000, 3000, 4000] }),
        'HLS-LIVE-PLAYLIST-STALE',
      );
      expectCode(live([second, first]), 'HLS-MEDIA-SEQUENCE-REGRESSED');
      expectCode(live([first, second.replace('TARGETDURATION:2', 'TARGETDURATION:4')]), 'HLS-LIVE-TAG-CHANGED');
      const drift = first.replace(
        /(#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:04)/,
        '#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:09',
      );
      expectCode(live([drift, second]), 'HLS-PROGRAM-DATE-TIME-DRIFT');
      expectCode(live([mediaText([2, 2], { live: true, sequence: 5 })]), 'HLS-PROGRAM-DATE-TIME-MISSING');
      // The playlist's last segment ends at 00:00:06; read an hour later.
      const p = playlist('v0.m3u8', first);
      p.readAt = Date.parse('2026-01-01T01:00:00Z');
      p.watchedSeconds = 0;
      const behind = runChecks(stream([p]));
      expectCode(behind, 'HLS-LIVE-EDGE-BEHIND');
      expectCode(behind, 'HLS-LIVE-NOT-WATCHED');
      expectCode(live([first, second], { watched: 1.5 * target }), 'HLS-LIVE-NOT-WATCHED');
      const vod = mediaText([2, 2, 2], { live: true, sequence: 0, pdt: true });
      const [endless] = expectCode(
        live([vod, vod, vod, vod, vod], { at: [1000, 2000, 3000, 4000] }),
        'HLS-ENDLIST-MISSING',
      );
      assert.equal(endless!.severity, 'warning');
    });

    it('delivery: Content-Type of playlists and segments, CORS, compression, cache lifetime of a live playlist', () => {
      const ok: Delivery = {
        contentType: 'application/vnd.apple.mpegurl',
        accessControlAllowOrigin: '*',
        cacheControl: 'max-age=1',
      };
      const withDelivery = (
        d: Delivery,
        text = mediaText([2, 2], { live: true, pdt: true }),
        segment?: Delivery,
      ): Finding[] => {
        const p = playlist('v0.m3u8', text, { delivery: d });
        p.watchedSeconds = 0;
        if (segment) p.segments[0]!.delivery = segment;
        return runChecks(stream([p])).filter((f) => f.family === 'delivery');
      };
      assert.deepEqual(
        withDelivery(ok).map((f) => f.code),
        [],
      );
      expectCode(withDelivery({ ...ok, contentType: 'text/plain' }), 'HLS-CONTENT-TYPE');
      expectCode(
        withDelivery(ok, undefined, { contentType: 'text/html', accessControlAllowOrigin: '*' }),
        'HLS-CONTENT-TYPE',
      );
      expectCode(withDelivery({ contentType: ok.contentType! }), 'HLS-CORS-MISSING');
      expectCode(withDelivery({ ...ok, cacheControl: 'public, max-age=60' }), 'HLS-LIVE-CACHE-TOO-LONG');
      const long = mediaText(Array<number>(1000).fill(2));
      expectCode(withDelivery(ok, long), 'HLS-PLAYLIST-NOT-COMPRESSED');
    });
  });

  describe('reading: a loopback server of synthetic bytes, and an MP4 written in-process', () => {
    let server: ReturnType<typeof createServer>;
    let base: string;
    let tmp: string;
    const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {};
    const text = (body: string) => (_req: IncomingMessage, res: ServerResponse) => {
      res
        .writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl', 'access-control-allow-origin': '*' })
        .end(body);
    };
    before(async () => {
      tmp = mkdtempSync(join(tmpdir(), 'inspector-checks-'));
      server = createServer((req, res) => {
        const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
        if (route) route(req, res);
        else res.writeHead(404).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      rmSync(tmp, { recursive: true, force: true });
    });
    const codesOf = async (
      path: string,
      options: { deadlineSeconds?: number; maxSegmentBytes?: number } = {},
    ): Promise<Finding[]> =>
      (await inspect(`${base}${path}`, { fetch: nodeFetch, liveSeconds: 0, ...options })).findings;

    it('a segment that answers 404, one named by file://, one larger than the bound', async () => {
      routes['/r/a.m3u8'] = text(`${mediaText([2]).replace('s0.ts', 'missing.ts')}`);
      expectCode(await codesOf('/r/a.m3u8'), 'INPUT-UNREADABLE');
      routes['/r/b.m3u8'] = text(mediaText([2]).replace('s0.ts', pathToFileURL('/etc/passwd').href));
      expectCode(await codesOf('/r/b.m3u8'), 'INPUT-REFUSED');
      routes['/r/big.ts'] = (_req, res) =>
        res.writeHead(200, { 'content-type': 'video/mp2t' }).end(Buffer.alloc(4096, 0x47));
      routes['/r/c.m3u8'] = text(mediaText([2]).replace('s0.ts', 'big.ts'));
      expectCode(await codesOf('/r/c.m3u8', { maxSegmentBytes: 1024 }), 'INPUT-TOO-LARGE');
    });

    it('a run past its deadline', async () => {
      // Headers at once, then a byte now and then: the 1 s deadline ends the run with a report.
      routes['/d/slow.ts'] = (_req, res) => {
        res.writeHead(200, { 'content-type': 'video/mp2t' });
        const timer = setInterval(() => res.write(Buffer.from([0x47])), 200);
        res.on('close', () => clearInterval(timer));
      };
      routes['/d/a.m3u8'] = text(mediaText([2]).replace('s0.ts', 'slow.ts'));
      expectCode(await codesOf('/d/a.m3u8', { deadlineSeconds: 1 }), 'INSPECT-DEADLINE');
    });

    it('keys: one that answers 404, one of 5 bytes, SAMPLE-AES not checked', async () => {
      routes['/k/s0.ts'] = (_req, res) =>
        res.writeHead(200, { 'content-type': 'video/mp2t' }).end(Buffer.alloc(376, 1));
      routes['/k/short.key'] = (_req, res) => res.writeHead(200).end(Buffer.alloc(5));
      const keyed = (line: string): string => mediaText([2]).replace('#EXTINF', `${line}\n#EXTINF`);
      routes['/k/a.m3u8'] = text(keyed('#EXT-X-KEY:METHOD=AES-128,URI="gone.key"'));
      expectCode(await codesOf('/k/a.m3u8'), 'HLS-KEY-UNAVAILABLE');
      routes['/k/b.m3u8'] = text(keyed('#EXT-X-KEY:METHOD=AES-128,URI="short.key"'));
      expectCode(await codesOf('/k/b.m3u8'), 'HLS-KEY-INVALID');
      routes['/k/c.m3u8'] = text(
        keyed('#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://x",KEYFORMAT="com.apple.streamingkeydelivery"').replace(
          'VERSION:3',
          'VERSION:5',
        ),
      );
      expectCode(await codesOf('/k/c.m3u8'), 'HLS-ENCRYPTION-NOT-CHECKED');
    });

    it('an MP4 whose index follows its media, and no video in it', async () => {
      const output = new Output({ format: new Mp4OutputFormat({ fastStart: false }), target: new BufferTarget() });
      const source = new EncodedAudioPacketSource('pcm-s16');
      output.addAudioTrack(source);
      await output.start();
      for (let i = 0; i < 10; i++) {
        await source.add(
          new EncodedPacket(new Uint8Array(1600), 'key', i * 0.1, 0.1),
          i === 0 ? { decoderConfig: { codec: 'pcm-s16', sampleRate: 8000, numberOfChannels: 1 } } : undefined,
        );
      }
      await output.finalize();
      const file = join(tmp, 'tone.mp4');
      writeFileSync(file, Buffer.from(output.target.buffer!));
      const report = await inspect(file, { fetch: nodeFetch });
      expectCode(report.findings, 'MP4-MOOV-AT-END');
      expectCode(report.findings, 'MEDIA-NO-VIDEO');
    });
  });

  describe('CI output and the registry', () => {
    const report: Report = {
      input: 'http://127.0.0.1:9/master.m3u8',
      kind: 'hls-master',
      live: false,
      variants: [{ name: 'v0.m3u8', address: 'http://127.0.0.1:9/v/v0.m3u8', declared: {}, measured: {} }],
      findings: [
        {
          code: 'HLS-EXTINF-MISMATCH',
          severity: 'warning',
          family: 'timing',
          message: 'm1',
          variant: 'v0.m3u8',
          segment: 's1.ts',
          clause: 'RFC 8216 4.3.2.1',
        },
        {
          code: 'HLS-AVERAGE-BANDWIDTH-MISSING',
          severity: 'info',
          family: 'master',
          message: 'm2 <&>',
          clause: 'RFC 8216 4.3.4.2',
        },
      ],
      sampled: {
        rule: 'r',
        segmentsProbed: 1,
        requests: { get: 1, head: 0 },
        bytesRead: 1,
        elapsedMs: 1500,
        notChecked: ['x'],
      },
    };

    it('--fail-on: errors fail by default, warnings when asked, nothing with none', () => {
      assert.deepEqual(failing(report.findings, 'error'), []);
      assert.deepEqual(
        failing(report.findings, 'warning').map((f) => f.code),
        ['HLS-EXTINF-MISMATCH'],
      );
      assert.deepEqual(failing(report.findings, 'none'), []);
    });

    it('SARIF 2.1.0: rules are the registered codes with their clause as help URI; results point at the segment', () => {
      const sarif = toSarif(report) as {
        version: string;
        runs: Array<{
          tool: { driver: { rules: Array<{ id: string; helpUri?: string }> } };
          results: Array<{
            ruleId: string;
            ruleIndex: number;
            level: string;
            locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }>;
          }>;
        }>;
      };
      assert.equal(sarif.version, '2.1.0');
      const rules = sarif.runs[0]!.tool.driver.rules;
      assert.deepEqual(new Set(rules.map((r) => r.id)), new Set(registeredCodes()));
      const [first, second] = sarif.runs[0]!.results;
      assert.equal(rules[first!.ruleIndex]!.id, 'HLS-EXTINF-MISMATCH');
      assert.equal(rules[first!.ruleIndex]!.helpUri, 'https://www.rfc-editor.org/rfc/rfc8216#section-4.3.2.1');
      assert.equal(first!.locations[0]!.physicalLocation.artifactLocation.uri, 'http://127.0.0.1:9/v/s1.ts');
      assert.equal(second!.level, 'note');
    });

    it('JUnit: one test case per family, the failing findings as failures, the others as output', () => {
      const xml = toJunit(report, 'warning');
      assert.match(
        xml,
        /<testcase classname="inspect" name="Segments and timing"><failure type="HLS-EXTINF-MISMATCH" message="m1">/,
      );
      assert.match(
        xml,
        /name="Master playlist and rendition groups"><system-out>INFO HLS-AVERAGE-BANDWIDTH-MISSING: m2 &lt;&amp;&gt;/,
      );
      assert.match(xml, /<testsuite name="http:\/\/127.0.0.1:9\/master.m3u8" tests="\d+" failures="1"/);
      assert.doesNotMatch(toJunit(report, 'error'), /<failure/);
    });

    it('the CLI: --format sarif and --fail-on warning decide the output and the exit code; a bad value is refused', () => {
      const cli = (args: string[]): ReturnType<typeof spawnSync> =>
        spawnSync(
          process.execPath,
          ['--import', 'tsx', join(__dirname, '..', '..', 'src', 'inspector', 'cli.ts'), ...args],
          { encoding: 'utf8', timeout: 60_000 },
        );
      const dir = mkdtempSync(join(tmpdir(), 'inspector-cli-'));
      try {
        const file = join(dir, 'p.m3u8');
        // One warning (EXTINF of 1.5 s needs version 3 is an error; so declare it), no error.
        writeFileSync(
          file,
          '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-DISCONTINUITY-SEQUENCE:0\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:2,\nmissing.ts\n#EXT-X-ENDLIST\n',
        );
        const asError = cli([file, '--format', 'sarif']);
        assert.equal(asError.status, 1, String(asError.stderr));
        const sarif = JSON.parse(String(asError.stdout)) as { runs: Array<{ results: Array<{ ruleId: string }> }> };
        assert.deepEqual(
          sarif.runs[0]!.results.map((r) => r.ruleId),
          ['INPUT-UNREADABLE'],
        );
        const none = cli([file, '--format', 'junit', '--fail-on', 'none']);
        assert.equal(none.status, 0);
        assert.match(String(none.stdout), /^<\?xml/);
        const bad = cli([file, '--fail-on', 'sometimes']);
        assert.equal(bad.status, 2);
        assert.match(String(bad.stderr), /--fail-on must be one of error, warning, none, not "sometimes"/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('a family from outside src/inspector is one registration: its codes are known and its check runs', () => {
      registerFamily({
        name: 'test-outside',
        title: 'Registered by a test',
        codes: { 'TEST-OUTSIDE-FOUND': { severity: 'warning', meaning: 'a test family', clause: 'none' } },
        // Its codes are not in the built-in union: `outsideCode` says the family registers them itself.
        check: (model) =>
          model.address === 'test://outside' ? [finding(outsideCode('TEST-OUTSIDE-FOUND'), 'found')] : [],
      });
      assert.equal(codeInfo('TEST-OUTSIDE-FOUND')?.family, 'test-outside');
      assert.deepEqual(
        runChecks({ ...stream([]), address: 'test://outside' }).map((f) => f.code),
        ['TEST-OUTSIDE-FOUND'],
      );
      // A misspelt built-in code fails the typecheck (the directive fails it if the line were accepted), and at run time.
      // @ts-expect-error 'HLS-AUDIO-GAPS' is no registered code
      assert.throws(() => finding('HLS-AUDIO-GAPS', 'x'), /finding code HLS-AUDIO-GAPS is not registered/);
      assert.throws(
        () =>
          registerFamily({
            name: 'test-again',
            title: 't',
            codes: { 'HLS-EXTINF-MISMATCH': { severity: 'info', meaning: 'm', clause: 'c' } },
          }),
        /belongs to family "timing" already/,
      );
      assert.throws(
        () =>
          registerFamily({
            name: 'test-bad',
            title: 't',
            codes: { 'bad code': { severity: 'info', meaning: 'm', clause: 'c' } },
          }),
        /capitals, digits and dashes/,
      );
    });
  });

  // Mocha runs a suite's own tests before its child suites: this one is a child suite, the last.
  describe('coverage', () => {
    it("README's table lists every registered code with its family, severity and clause", () => {
      const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
      const missing = registeredCodes()
        .filter((code) => !code.startsWith('TEST-'))
        .filter((code) => {
          const info = codeInfo(code)!;
          const row = readme.split('\n').find((line) => line.startsWith(`| \`${code}\` |`));
          return !row || !row.includes(`| ${info.family} | ${info.severity} |`) || !row.includes(info.clause);
        });
      assert.deepEqual(missing, []);
    });

    it('every registered code of the built-in families was produced by a test above', () => {
      // The content family is registered from outside the inspector (src/app/inspect/contentFamily.ts); its
      // codes are produced by test/media/qa/inspectorFamily.test.ts.
      const builtIn = registeredCodes().filter(
        (code) => !code.startsWith('TEST-') && codeInfo(code)!.family !== 'content',
      );
      assert.deepEqual(
        builtIn.filter((code) => !exercised.has(code)),
        [],
      );
    });
  });
});
