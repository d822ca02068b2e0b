/** Durations ("48h", "1w") are text every layer reads (the seats' pauseLimit too): src/text/duration.ts. */
export * from '../text/duration.js';
