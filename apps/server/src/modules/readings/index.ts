export { Compactor } from './readings.compactor.js';
export { type ReadingsColumns, readingsJson, releaseColumns } from './readings.json.js';
export { type LatestRawReading, latestRawReadings } from './readings.latest.js';
export { decodeBlob, encodeBlob } from './readings.packed.js';
export { RAW_COLUMNS } from './readings.raw.js';
export { batchSize, columnarBatch, pgWriteConcurrency, ReadingsRepository, readingsOf, type WriteBatch } from './readings.repository.js';
export { H1 } from './readings.rollup.js';
export { type ReadingsQueryInput, ReadingsService } from './readings.service.js';
export { type WriterExtension, type WriterThread, writerExtensionUrl } from './readings.writer-thread.js';
