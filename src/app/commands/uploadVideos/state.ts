import type { PlatformClient } from '../../../api/client';
import type { TemplateGroupSummary } from '../../../api/types';
import type { AppContext } from '../../context';

/** Which template group transcodes the uploads: the account's default, a chosen one, or none. */
export type Transcoding = { kind: 'default' } | { kind: 'group'; group: TemplateGroupSummary } | { kind: 'none' };

/** Upload Video's one state: the files, what the steps ask with, and the answers. */
export interface UploadState {
  readonly ctx: AppContext;
  readonly title: string;
  readonly files: readonly string[];
  /** The files' names for the questions' titles. */
  readonly names: string;
  readonly client: PlatformClient;
  /** A chosen category, or `other` before its id is typed. */
  category?: number | 'other';
  categoryId?: number;
  transcoding?: Transcoding;
}
