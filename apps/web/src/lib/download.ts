import { fetchBinary } from './api-client';

/**
 * GET `path` (under the API base) with the session's bearer token and anti-forgery header (a plain link could
 * carry neither) and hands the body to the browser as a download named by `fileName`. Rejects with an ApiError.
 */
export async function downloadFile(path: string, fileName: (response: Response) => string): Promise<void> {
  const response = await fetchBinary(path);
  saveBlob(await response.blob(), fileName(response));
}

/** The file name the server gives in Content-Disposition, else `fallback`. */
export function serverFileName(response: Response, fallback: string): string {
  const disposition = response.headers.get('content-disposition') ?? '';
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? fallback;
}

/** Hands a blob made in the browser (a template file) to the browser as a download named `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
