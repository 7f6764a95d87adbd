/**
 * Valid example documents of each kind (from the interface's field tables) and helpers to look at
 * problems: the text a problem's range covers, and a document with a quick fix applied.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocumentKind } from '../../src/authoring/documentKind';
import { applyTextEdits, type Problem } from '../../src/authoring/problems';
import { validateDocument } from '../../src/authoring/validate';

export const ROOT = join(__dirname, '..', '..');

export const HEX = {
  t720: '0123456789abcdef0123456789abcdef',
  t480: 'fedcba9876543210fedcba9876543210',
  logo: 'aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb',
  category: 'ccccccccccccccccdddddddddddddddd',
  channel: '11111111111111112222222222222222',
  group: '33333333333333334444444444444444',
  video1: '55555555555555556666666666666666',
  video2: '77777777777777778888888888888888',
} as const;

type Json = Record<string, unknown>;

/** Fresh copies, so a test may change them. */
export const EXAMPLES: Readonly<Record<DocumentKind, () => Json>> = {
  channel: () => ({
    name: 'Morning news',
    signalType: '1',
    liveType: 0,
    type: HEX.category,
    description: 'Weekdays 6:00',
    outputGroupList: [
      {
        protocolType: 1,
        rotation: '0',
        isRecord: '1',
        needToMp4: '1',
        isTimeShift: '1',
        timeShiftDuration: '2',
        isLiveEncrypt: '0',
        logoId: HEX.logo,
        outputTemplateList: [
          { templateId: HEX.t720, isDefault: '1' },
          { templateId: HEX.t480, isDefault: '0' },
        ],
      },
      {
        protocolType: 2,
        rtmpThirdPartyOutputUrl: 'rtmp://cdn.example/live/news',
        isRecord: 0,
        outputTemplateList: [{ templateId: HEX.t720, isDefault: 1 }],
      },
    ],
  }),
  templategroup: () => ({
    name: 'HLS ladder',
    type: 0,
    trailor: true,
    trailorDuration: 30,
    logoGroupId: 0,
    transcodeTemplates: [
      {
        name: '1080p',
        videoWidth: 1920,
        videoHeight: 1080,
        videoBitrate: 4500,
        audioBitrate: 128000,
        format: 0,
        encryptType: 6,
        defaultVideo: 0,
      },
      {
        name: '720p',
        videoWidth: 1280,
        videoHeight: 720,
        videoBitrate: 2500,
        audioBitrate: 128000,
        format: 0,
        encryptType: 0,
        defaultVideo: 1,
        advancedArguments: {
          rc: 'cbr',
          gopType: 1,
          gopSize: 2000,
          bFrame: 3,
          refFrame: 3,
          interlace: -1,
          smartBorder: 1,
        },
      },
      {
        name: '480p-mp4',
        videoWidth: 854,
        videoHeight: 480,
        videoBitrate: 1000,
        audioBitrate: 96000,
        format: 1,
        encryptType: 7,
        defaultVideo: 0,
      },
    ],
  }),
  logogroup: () => ({
    name: 'Corner logos',
    logos: [
      {
        uri: 'logos/corner.png',
        width: 120,
        height: 60,
        leftPos: 85,
        topPos: 5,
        opacity: 100,
        resize: 100,
        start: 0,
        end: 100,
      },
      {
        uri: 'logos/end-card.png',
        width: 300,
        height: 100,
        leftPos: 40,
        topPos: 80,
        opacity: 60,
        resize: 50,
        start: 90,
        end: 100,
      },
    ],
  }),
  transcode: () => ({
    videoIds: [HEX.video1, HEX.video2],
    transcodeTemplates: [
      {
        name: '720p',
        videoWidth: 1280,
        videoHeight: 720,
        videoBitrate: 2500,
        audioBitrate: 128000,
        hls: true,
        mp4: true,
        flv: false,
        hlsEncryptType: 6,
        mp4EncryptType: 0,
        defaultVideo: 1,
      },
      {
        name: '360p',
        videoWidth: 640,
        videoHeight: 360,
        videoBitrate: 600,
        audioBitrate: 64000,
        hls: false,
        mp4: false,
        flv: true,
        ts: true,
        tsEncryptType: 7,
        defaultVideo: 0,
      },
    ],
    videoType: 0,
    trailor: true,
    trailorDuration: 15,
    replace: false,
  }),
  livetemplate: () => ({
    displayName: '720p',
    type: 1,
    transcodeType: 0,
    videoWidth: 1280,
    videoHeight: 720,
    videoBitrate: 2000,
    audioBitrate: 128,
    frameRate: 25,
    advancedArguments: { rc: 'cbr', gopSize: 50, bframe: 2, refFrame: 3, interlace: -1, gopType: 0, smartBorder: 0 },
  }),
  livelogo: () => ({
    name: 'Station logo',
    uri: 'logos/station.png',
    width: 160,
    height: 90,
    offsetWidth: 20,
    offsetHeight: 20,
    opacity: 80,
    resize: 100,
  }),
};

export function textOf(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The document text a problem points at. */
export function covered(text: string, problem: Problem): string {
  return text.slice(problem.range.offset, problem.range.offset + problem.range.length);
}

export function problemsOf(kind: DocumentKind, text: string): Problem[] {
  return validateDocument(kind, text).problems;
}

/** The one problem with this code (fails the test when there is none or several). */
export function onlyProblem(problems: Problem[], code: string): Problem {
  const found = problems.filter((p) => p.code === code);
  assert.equal(
    found.length,
    1,
    `expected one ${code} problem, got ${found.length}: ${JSON.stringify(problems.map((p) => [p.code, p.message]))}`,
  );
  return found[0];
}

/** Applies a problem's fix and returns the new text. */
export function applyFix(text: string, problem: Problem): string {
  assert.ok(problem.fix, `problem ${problem.code} has no fix: ${problem.message}`);
  return applyTextEdits(text, problem.fix.edits);
}

export function readJson(relative: string): unknown {
  return JSON.parse(readFileSync(join(ROOT, relative), 'utf8'));
}
