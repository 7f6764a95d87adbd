/**
 * The content checks over every rendition of an fMP4 HLS ladder served on 127.0.0.1: the test clip (a black gap, a
 * frozen stretch, a silence, a tone 10 dB above EBU R 128's target) packaged as two renditions of 2 s fMP4 segments
 * with an initialization section each. Each rendition gets each finding at its time, naming the rendition.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTENT_FAMILY } from '../../../src/app/inspect/contentFamily';
import { inspect } from '../../../src/inspector/inspect';
import { nodeFetch } from '../../../src/inspector/source';
import { findMediaTools, type MediaTools } from '../../../src/media/tools';
import { serve } from '../../inspector/golden';
import { FMP4_RENDITIONS, makeClip, makeFmp4Ladder } from './fixtures';

describe('content checks on every rendition of an fMP4 HLS ladder', function () {
  this.timeout(180_000);
  let tools: MediaTools;
  let dir: string;
  let server: Awaited<ReturnType<typeof serve>> | undefined;
  let address: string;

  before(async () => {
    const mode = await findMediaTools({ npmFallback: true });
    if (mode.kind !== 'real') throw new Error(`needs ffmpeg: ${mode.reason}`);
    tools = mode.tools;
    dir = mkdtempSync(join(tmpdir(), 'vpt-content-fmp4-'));
    await makeClip(tools, join(dir, 'clip.mp4'));
    await makeFmp4Ladder(tools, join(dir, 'clip.mp4'), join(dir, 'hls'));
    server = await serve(join(dir, 'hls'));
    address = `${server.url}/master.m3u8`;
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('each rendition: black 4-6 s, frozen 9-12 s, silence 14-17 s, loudness 10 LU high, each naming it', async () => {
    const report = await inspect(address, {
      fetch: nodeFetch,
      mediaFamilies: { [CONTENT_FAMILY]: { ffmpeg: tools.ffmpeg } },
    });
    const content = report.findings.filter((f) => f.family === CONTENT_FAMILY);
    assert.ok(
      !report.sampled.notChecked?.some((n) => n.startsWith('content checks')),
      String(report.sampled.notChecked),
    );
    const names = report.variants.map((v) => v.name);
    assert.equal(names.length, FMP4_RENDITIONS.length);
    for (const name of names) {
      const of = (code: string) => {
        const found = content.filter((f) => f.code === code && f.variant === name);
        assert.equal(
          found.length,
          1,
          `${name}: one ${code} in ${JSON.stringify(content.map((f) => [f.variant, f.code, f.range]))}`,
        );
        assert.ok(found[0]!.message.startsWith(`${name}: `), found[0]!.message);
        return found[0]!;
      };
      for (const [code, start, end] of [
        ['QA-BLACK', 4, 6],
        ['QA-FROZEN', 9, 12],
        ['QA-SILENCE', 14, 17],
      ] as const) {
        const f = of(code);
        assert.ok(
          Math.abs(f.range!.start - start) <= 0.15 && Math.abs(f.range!.end - end) <= 0.15,
          `${name} ${code}: ${JSON.stringify(f.range)}, expected ${start}-${end} s`,
        );
        assert.match(f.still ?? '', /^data:image\/jpeg;base64,/, `${name} ${code}: a still`);
      }
      const loud = of('QA-LOUDNESS-HIGH');
      const above = Number(/([\d.]+) LU above the EBU R 128 target/.exec(loud.message)?.[1]);
      assert.ok(Math.abs(above - 10) <= 0.7, loud.message);
    }
  });
});
