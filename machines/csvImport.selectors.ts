import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { bannerMachine } from './banner.machine';
import type { csvImportMachine } from './csvImport.machine';

type S = SnapshotFrom<typeof csvImportMachine>;

export const selectCsvResult = (s: S) => s.context.result;
export const selectCsvUploading = (s: S) => s.matches('uploading');
/** The invoked fading message (the banner chart `message`). */
export const selectCsvMessageRef = (s: S) => s.children.message as ActorRefFrom<typeof bannerMachine> | undefined;
