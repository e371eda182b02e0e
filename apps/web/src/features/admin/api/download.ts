import { downloadFile as download, serverFileName } from '../../../lib/download';

/**
 * Downloads an attachment the API answers (audit CSV, database backup) under the server's file name.
 * Rejects with an ApiError.
 */
export const downloadFile = (path: string): Promise<void> =>
  download(path, (response) => serverFileName(response, 'download'));
