export * from './glob';
export * from './policy';
export * from './scope';
