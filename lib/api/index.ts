export * from './error';
export * from './health';
export * from './federation';
