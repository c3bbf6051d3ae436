export * from './records.js';
export { ShowRecorder, type ShowRecorderOptions } from './show-recorder.js';
export { readShowLog, showLogFiles, type ReadShowLogOptions } from './read-show-log.js';
export { localIso, showDayOf, DAY_STARTS_AT_HOUR } from './show-day.js';
