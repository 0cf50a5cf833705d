import { assign, sendTo, setup } from 'xstate';
import { missingPromise } from './shared';
import { API_MESSAGE_DELAYS, bannerMachine, type BannerEvent } from './banner.machine';
import { CSV_BAD_NAME, CSV_NO_FILE, csvImportNotice, type CsvUploadAnswer } from '../contract/task';
import { errorText } from '../contract/errorText';

/** The file chosen for upload, as far as the chart cares: its name (the rule is on the name). */
export interface CsvFile {
  name: string;
}

export interface CsvImportContext {
  file: CsvFile | null;
  result: CsvUploadAnswer | null;
  error: string | null;
}

export type CsvImportEvent = { type: 'csv.select'; file: CsvFile | null } | { type: 'csv.upload' };

/** True when a file name ends in .csv, case-insensitively (docs/game-rules.md §13). */
export function isCsvName(name: string): boolean {
  return /\.csv$/i.test(name.trim());
}

/**
 * The Task CSV Importer (docs/client.md §8, §11; docs/game-rules.md §13): choosing a file whose
 * name does not end in .csv gives 'Please select a valid .csv file.'; uploading with no file
 * 'No file selected for upload.'; otherwise the `uploadCsv` actor sends it and the answer
 * (inserted, skipped, bad rows) is kept for display; `notifyImported` lets the task list reload.
 * The message of the moment (the error, or the answer's csvImportNotice) is shown by the invoked
 * banner chart `message` with the API message delays: it fades after 5 s and is gone 1 s later;
 * the answer's counts and bad rows stay until the next choice.
 */
export const csvImportMachine = setup({
  types: {
    context: {} as CsvImportContext,
    events: {} as CsvImportEvent,
  },
  actors: {
    uploadCsv: missingPromise<CsvUploadAnswer, CsvFile>('csvImport', 'uploadCsv'),
    banner: bannerMachine.provide({ delays: API_MESSAGE_DELAYS }),
  },
  guards: {
    isCsvFile: (_, file: CsvFile | null) => file !== null && isCsvName(file.name),
    hasFile: ({ context }) => context.file !== null,
  },
  actions: {
    assignFile: assign((_, file: CsvFile | null) => ({ file, error: null, result: null })),
    rejectFile: assign((_, file: CsvFile | null) => ({ file: null, result: null, error: file ? CSV_BAD_NAME : null })),
    assignNoFile: assign({ error: CSV_NO_FILE, result: null }),
    assignResult: assign((_, result: CsvUploadAnswer) => ({ result, error: null, file: null })),
    assignError: assign((_, error: unknown) => ({
      error: errorText(error, 'Failed to extract tasks. Check file format and permissions.'),
    })),
    notifyImported: () => {},
    /** The banner follows the context: the error, else the answer's notice, else nothing. */
    showMessage: sendTo('message', ({ context }): BannerEvent => {
      if (context.error) return { type: 'message.show', tone: 'error', text: context.error };
      if (context.result) return { type: 'message.show', ...csvImportNotice(context.result) };
      return { type: 'message.dismiss' };
    }),
  },
}).createMachine({
  id: 'csvImport',
  context: { file: null, result: null, error: null },
  invoke: { id: 'message', src: 'banner' },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'csv.select': [
          { guard: { type: 'isCsvFile', params: ({ event }) => event.file }, actions: [{ type: 'assignFile', params: ({ event }) => event.file }, 'showMessage'] },
          { actions: [{ type: 'rejectFile', params: ({ event }) => event.file }, 'showMessage'] },
        ],
        'csv.upload': [{ guard: 'hasFile', target: 'uploading' }, { actions: ['assignNoFile', 'showMessage'] }],
      },
    },
    uploading: {
      tags: ['busy'],
      invoke: {
        id: 'uploadCsv',
        src: 'uploadCsv',
        input: ({ context }) => context.file as CsvFile,
        onDone: { target: 'idle', actions: [{ type: 'assignResult', params: ({ event }) => event.output }, 'showMessage', 'notifyImported'] },
        onError: { target: 'idle', actions: [{ type: 'assignError', params: ({ event }: { event: { error: unknown } }) => event.error }, 'showMessage'] },
      },
    },
  },
});
