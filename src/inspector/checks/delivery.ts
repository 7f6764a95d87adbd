/**
 * Delivery: what the HTTP answers say about playlists and segments: their Content-Type, CORS for players in
 * browsers, compression of playlists, and the cache lifetime of live playlists. Local files have no answers and
 * are not judged.
 */
import { l10n } from '../../l10n/l10n';
import { APPLE, finding, RFC, type Finding } from '../findings';
import { isLive, type Delivery, type StreamModel } from '../model';
import { registerFamily } from '../registry';

const PLAYLIST_TYPES = ['application/vnd.apple.mpegurl', 'audio/mpegurl', 'application/x-mpegurl', 'audio/x-mpegurl'];
const SEGMENT_TYPES =
  /^(video|audio)\/(mp2t|mp4|iso\.segment|aac|mpeg|webm)|^application\/(mp4|octet-stream)|^text\/vtt/;

export const deliveryFamily = {
  name: 'delivery',
  get title(): string {
    return l10n.t('Delivery (HTTP)');
  },
  codes: {
    'HLS-CONTENT-TYPE': {
      severity: 'warning',
      meaning:
        'a playlist not served as application/vnd.apple.mpegurl (or audio/mpegurl), or a segment with a Content-Type that is not media',
      clause: `${RFC} 4; ${APPLE}, delivery (MIME types)`,
    },
    'HLS-CORS-MISSING': {
      // Info: the inspector sends no Origin, and some servers answer CORS only to requests that carry one.
      severity: 'info',
      meaning:
        'a playlist or segment answered without Access-Control-Allow-Origin: players in web pages cannot read it',
      clause: `${APPLE}, delivery; Fetch standard (CORS)`,
    },
    'HLS-PLAYLIST-NOT-COMPRESSED': {
      severity: 'info',
      meaning: 'a playlist larger than 10 KiB served without gzip or another Content-Encoding',
      clause: `${APPLE}, delivery (compress playlists)`,
    },
    'HLS-LIVE-CACHE-TOO-LONG': {
      severity: 'warning',
      meaning: 'a live media playlist may be cached (Cache-Control max-age) longer than half its target duration',
      clause: `${RFC} 6.2.2; ${APPLE}, delivery (caching of live playlists)`,
    },
  },
  check: checkDelivery,
} as const;

registerFamily(deliveryFamily);

function maxAge(cacheControl: string | undefined): number | undefined {
  const m = /(?:^|,)\s*(?:s-)?max-age\s*=\s*(\d+)/i.exec(cacheControl ?? '');
  return m ? Number(m[1]) : undefined;
}

function checkDelivery(model: StreamModel): Finding[] {
  const out: Finding[] = [];
  let corsReported = false;
  const cors = (d: Delivery | undefined, what: string, variant?: string): void => {
    if (!d || corsReported || d.accessControlAllowOrigin) return;
    corsReported = true;
    out.push(
      finding(
        'HLS-CORS-MISSING',
        l10n.t(
          '{0} was answered without Access-Control-Allow-Origin: hls.js and other players in web pages cannot read it.',
          what,
        ),
        variant !== undefined ? { variant } : {},
      ),
    );
  };
  const playlistType = (d: Delivery | undefined, what: string, size: number, variant?: string): void => {
    if (!d) return;
    const type = (d.contentType ?? '').split(';')[0]!.trim().toLowerCase();
    const at = variant !== undefined ? { variant } : {};
    if (!PLAYLIST_TYPES.includes(type)) {
      out.push(
        finding(
          'HLS-CONTENT-TYPE',
          l10n.t('{0} is served as "{1}", not application/vnd.apple.mpegurl.', what, d.contentType ?? ''),
          at,
        ),
      );
    }
    if (size > 10 * 1024 && !d.contentEncoding) {
      out.push(
        finding(
          'HLS-PLAYLIST-NOT-COMPRESSED',
          l10n.t('{0} is {1} KiB and served without compression.', what, Math.round(size / 1024)),
          at,
        ),
      );
    }
  };
  if (model.master) {
    playlistType(model.master.delivery, l10n.t('The master playlist'), model.master.text.length);
    cors(model.master.delivery, l10n.t('The master playlist'));
  }
  for (const p of model.playlists) {
    const what = l10n.t('The media playlist {0}', p.name);
    playlistType(p.delivery, what, p.text?.length ?? 0, p.name);
    cors(p.delivery, what, p.name);
    const target = p.playlist?.targetDuration;
    const age = maxAge(p.delivery?.cacheControl);
    if (isLive(p) && target !== undefined && age !== undefined && age > target / 2) {
      out.push(
        finding(
          'HLS-LIVE-CACHE-TOO-LONG',
          l10n.t(
            'The live playlist may be cached for {0} s (Cache-Control: {1}), more than half its target duration of {2} s: players behind a cache see it late.',
            age,
            p.delivery!.cacheControl!,
            target,
          ),
          { variant: p.name },
        ),
      );
    }
    const badSegment = p.segments.find((s) => {
      const type = s.delivery?.contentType?.split(';')[0]?.trim().toLowerCase();
      return type !== undefined && !SEGMENT_TYPES.test(type);
    });
    if (badSegment) {
      out.push(
        finding(
          'HLS-CONTENT-TYPE',
          l10n.t('Segment {0} is served as "{1}", not as media.', badSegment.uri, badSegment.delivery!.contentType!),
          { variant: p.name, segment: badSegment.uri },
        ),
      );
    }
    for (const s of p.segments) cors(s.delivery, l10n.t('Segment {0}', s.uri), p.name);
  }
  return out;
}
