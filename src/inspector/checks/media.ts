/**
 * Media: segments that were downloaded but could not be read, named by why: fMP4 without its initialization
 * section (EXT-X-MAP), fMP4 that does not read with the one named, decrypted bytes that are not media, or
 * anything else the reader refused.
 */
import { l10n } from '../../l10n/l10n';
import { finding, RFC, type Finding } from '../findings';
import type { StreamModel } from '../model';
import { registerFamily } from '../registry';

const FMP4_BOXES = new Set(['moof', 'styp', 'sidx', 'emsg', 'prft']);

export const mediaFamily = {
  name: 'media',
  get title(): string {
    return l10n.t('Media');
  },
  codes: {
    'HLS-MAP-MISSING': {
      severity: 'error',
      meaning: 'fragmented MP4 segments (moof) without EXT-X-MAP: players cannot decode them without the init section',
      clause: `${RFC} 3.3, 4.3.2.5`,
    },
    'HLS-MAP-MISMATCH': {
      severity: 'error',
      meaning: 'a fragmented MP4 segment does not read with the initialization section its EXT-X-MAP names',
      clause: `${RFC} 3.3, 4.3.2.5`,
    },
  },
  check: (model: StreamModel): Finding[] =>
    model.playlists.flatMap((p) => {
      const out: Finding[] = [];
      let mapMissing = false;
      for (const seg of p.segments) {
        const u = seg.unreadable;
        if (!u) continue;
        const at = { variant: p.name, segment: seg.uri };
        const fmp4 = u.leading !== undefined && FMP4_BOXES.has(u.leading);
        if (fmp4 && !u.withInit) {
          if (!mapMissing) {
            out.push(
              finding(
                'HLS-MAP-MISSING',
                l10n.t(
                  'Segment {0} is fragmented MP4 (it starts with a {1} box), but the playlist names no EXT-X-MAP: its tracks are described nowhere.',
                  seg.uri,
                  u.leading!,
                ),
                at,
              ),
            );
          }
          mapMissing = true;
        } else if (fmp4) {
          out.push(
            finding(
              'HLS-MAP-MISMATCH',
              l10n.t('Segment {0} does not read with its EXT-X-MAP initialization section: {1}.', seg.uri, u.message),
              at,
            ),
          );
        } else {
          out.push(
            finding(
              u.decrypted ? 'HLS-DECRYPT-FAILED' : 'MEDIA-UNDECODABLE',
              l10n.t('Segment {0} could not be read as media: {1}.', seg.uri, u.message),
              at,
            ),
          );
        }
      }
      return out;
    }),
} as const;

registerFamily(mediaFamily);

/** What bytes start with: an ISO-BMFF box type, `ts` for MPEG-TS, or undefined. */
export function leadingType(data: Uint8Array): string | undefined {
  if (data.length >= 188 && data[0] === 0x47) return 'ts';
  if (data.length < 8) return undefined;
  const type = String.fromCharCode(data[4]!, data[5]!, data[6]!, data[7]!);
  return /^[a-z0-9 ]{4}$/.test(type) ? type : undefined;
}
