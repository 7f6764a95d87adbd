/**
 * A channel's recording becomes a video of the account when the channel stops (type 3, live
 * recording): the copy of the incoming stream (MPEG-TS) is remuxed to MP4 (`+faststart`) when the
 * group asks for MP4 (`needToMp4`), otherwise kept as TS. Stored in the account's media folder beside
 * every other video's files (media/files.ts), so the media route serves it at the video's address
 * (`/vod/<videoId>/recording.mp4`).
 */
import { chmod, mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { accountDir } from '../accounts';
import { FILE_MODE, videoDir } from '../media/files';
import type { MediaTools } from '../../media/tools';
import { readMedia } from '../../media/read';
import { runTool } from '../../media/tools';
import { VideoStatuses } from '../../api/types';
import type { Account } from '../actions/context';
import { newId } from '../store/ids';
import { DIR_MODE } from '../store/permissions';
import { newVideoRecord, type ChannelRec, type StreamRec } from '../store/records';
import { Tx } from '../store/store';
import { watched } from '../media/engine';
import type { Watchdog } from './watchdog';

export async function recordingToVideo(
  tools: MediaTools,
  account: Account,
  dataDir: string,
  file: string,
  channel: ChannelRec,
  log: (line: string) => void,
  watchdog: Watchdog,
): Promise<void> {
  const size = await stat(file).then(
    (s) => s.size,
    () => 0,
  );
  if (size === 0) return;
  const group = channel.groups.find((g) => g.isRecord === '1');
  const mp4 = group?.needToMp4 === '1';
  const videoId = newId();
  const dir = videoDir(accountDir(dataDir, account.accessKey), videoId);
  await mkdir(dir, { recursive: true, mode: DIR_MODE });
  const name = mp4 ? 'recording.mp4' : 'recording.ts';
  const target = join(dir, name);
  if (mp4) {
    await runTool(
      tools.ffmpeg,
      ['-hide_banner', '-loglevel', 'error', '-y', '-i', file, '-c', 'copy', '-movflags', '+faststart', target],
      watched(watchdog, { timeoutMs: 10 * 60_000 }),
    );
    await rm(file, { force: true });
  } else {
    await rename(file, target);
  }
  await chmod(target, FILE_MODE);
  const probed = await readMedia(target, { signal: AbortSignal.timeout(60_000) });
  const v = probed.video;
  const a = probed.audio;
  const finalSize = (await stat(target)).size;
  const duration = probed.duration;
  const kbps = (bitRate: number | undefined): number => Math.round((bitRate ?? 0) / 1000);
  const path = `/vod/${videoId}/${name}`;
  const stream: StreamRec = {
    name: 'recording',
    hlsPath: null,
    mp4Path: mp4 ? path : null,
    flvPath: null,
    tsPath: mp4 ? null : path,
    hlsSize: 0,
    mp4Size: mp4 ? finalSize : 0,
    flvSize: 0,
    tsSize: mp4 ? 0 : finalSize,
    videoWidth: v?.width ?? 0,
    videoHeight: v?.height ?? 0,
    videoBitrate: kbps(v?.bitRate) || kbps(probed.bitRate),
    audioBitrate: kbps(a?.bitRate),
    defaultVideo: 1,
    taskId: group?.recordTaskId ?? newId(),
    status: 2,
    idx: 0,
    type: 0,
    hlsEncryptType: 0,
    mp4EncryptType: 0,
    flvEncryptType: 0,
    tsEncryptType: 0,
    contentId: null,
    customId: null,
    aesKey: null,
  };
  const now = Date.now();
  const video = newVideoRecord({
    id: videoId,
    fileName: name,
    title: `${channel.name} ${new Date(channel.startTime ?? now).toISOString().slice(0, 16).replace('T', ' ')}`,
    uploadTime: now,
    status: VideoStatuses.completed,
    type: 3,
    width: stream.videoWidth,
    height: stream.videoHeight,
    bitrate: stream.videoBitrate,
    audioBitrate: stream.audioBitrate,
    duration: Math.round(duration * 1000),
    size: finalSize,
    streams: [stream],
  });
  await account.store.commit(new Tx().put('videos', video));
  log(`channel ${channel.id}: recording stored as video ${videoId} (${Math.round(duration)} s)`);
}
