export * from './error';
export * from './health';
