import type { TemplateGroupSummary, Video } from '../../../api/types';
import type { AppContext, EditorDocument } from '../../context';
import type { AdHocSource } from './adHoc';

export type Source = { kind: 'group'; group: TemplateGroupSummary } | { kind: 'file'; document: EditorDocument };

/** Transcode Videos' one state: the videos, what the questions offer, and the answers. */
export interface TranscodeState {
  readonly ctx: AppContext;
  readonly title: string;
  readonly videos: readonly Video[];
  /** The videos' names for the questions' titles. */
  readonly names: string;
  readonly groups: readonly TemplateGroupSummary[];
  /** The open `*.transcode.json` files. */
  readonly files: readonly EditorDocument[];
  source?: Source;
  /** The chosen file's templates, read and checked. */
  adHoc?: AdHocSource;
  replace?: boolean;
}
