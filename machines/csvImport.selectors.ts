import type { SnapshotFrom } from 'xstate';
import type { csvImportMachine } from './csvImport.machine';

type S = SnapshotFrom<typeof csvImportMachine>;

export const selectCsvResult = (s: S) => s.context.result;
export const selectCsvError = (s: S) => s.context.error;
export const selectCsvUploading = (s: S) => s.matches('uploading');
