import { FINDING_CODES, type Finding } from '../../inspector/findings';
import { parsePlaylist } from '../../inspector/hls';
import { playlistProblems } from '../../inspector/playlistProblems';
import type { Report, VariantRow } from '../../inspector/report';
import { l10n } from '../../l10n/l10n';
import { displayAddress, makeReader, resolveUri, toAddress, type FetchPort } from '../../inspector/source';

/**
 * Without ffmpeg: the playlist's own checks (its text, its variants as declared), nothing measured. A media file
 * cannot be checked at all without ffprobe: that is an error naming how to get it.
 */
export async function playlistOnlyReport(
  input: string,
  fetch: FetchPort,
  installHint: string,
  signal?: AbortSignal,
): Promise<Report> {
  const started = Date.now();
  const address = toAddress(input);
  const reader = makeReader(fetch, signal ? { signal } : {});
  const text = (await reader.text(address)).replace(/^\uFEFF/, '');
  if (!text.startsWith('#EXTM3U'))
    throw new Error(
      l10n.t('{0} is not an HLS playlist, and media files need ffprobe: {1}', displayAddress(address), installHint),
    );
  const findings: Finding[] = playlistProblems(text).map((problem) => ({
    code: problem.code,
    severity: problem.severity,
    message: `${problem.message} (line ${problem.line + 1})`,
    clause: FINDING_CODES[problem.code].clause,
  }));
  const parsed = parsePlaylist(text);
  const variants: VariantRow[] = [];
  let live = false;
  if (parsed?.isMasterPlaylist) {
    for (const variant of parsed.variants) {
      variants.push({
        name: variant.uri,
        address: displayAddress(resolveUri(variant.uri, address)),
        declared: {
          bandwidth: variant.bandwidth,
          ...(variant.averageBandwidth !== undefined ? { averageBandwidth: variant.averageBandwidth } : {}),
          ...(variant.resolution ? { resolution: `${variant.resolution.width}x${variant.resolution.height}` } : {}),
          ...(variant.codecs ? { codecs: variant.codecs } : {}),
        },
        measured: {},
      });
    }
  } else if (parsed) {
    live = !parsed.endlist && parsed.playlistType !== 'VOD';
    const durations = parsed.segments.map((segment) => segment.duration);
    variants.push({
      name: displayAddress(address).split('/').pop() ?? address,
      address: displayAddress(address),
      declared: {},
      measured: {},
      segments: parsed.segments.length,
      targetDuration: parsed.targetDuration,
      ...(durations.length ? { longestSegment: Math.max(...durations) } : {}),
      live,
    });
  }
  return {
    input: displayAddress(address),
    kind: parsed?.isMasterPlaylist ? 'hls-master' : 'hls-media',
    live,
    variants,
    findings,
    sampled: {
      rule: 'the playlist text only (ffmpeg was not found: no segment was read or measured)',
      segmentsProbed: 0,
      requests: { get: reader.counts.get, head: reader.counts.head },
      bytesRead: reader.counts.bytes,
      elapsedMs: Date.now() - started,
    },
  };
}
