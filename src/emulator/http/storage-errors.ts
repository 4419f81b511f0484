import { ApiError } from '../../contract/errors.js';
import { storageCondition, type StorageLogger } from '../../store/storage-condition.js';

/**
 * CHOICE-36: a storage condition as the spec's error body with a code of its own, said once in the
 * host's log (not a stack trace per request); null for anything else. The request's transaction
 * was rolled back, so nothing of it was stored or acknowledged.
 */
export function storageApiError(error: unknown, logger: StorageLogger): ApiError | null {
  const condition = storageCondition(error);
  if (!condition) return null;
  logger.storage.note(condition, error);
  switch (condition) {
    case 'full':
      return new ApiError(
        'storage_full',
        'The emulator cannot store this request: its disk is full. Nothing was stored; retry once space is freed.',
      );
    case 'io':
      return new ApiError(
        'storage_unavailable',
        'The emulator could not read or write its database (I/O error). Nothing was stored; retry later.',
      );
    case 'busy':
      return new ApiError('storage_busy', "The emulator's database stayed locked past its timeout. Nothing was stored; retry.", undefined, {
        headers: { 'Retry-After': '1' },
      });
    case 'damaged':
      return new ApiError('storage_damaged', "The emulator's database file is damaged where this request reads it; see the serve log.");
    case 'closed':
      return new ApiError('service_stopping', 'The emulator is stopping; retry once it is running again.', undefined, {
        headers: { Connection: 'close' },
      });
  }
}
