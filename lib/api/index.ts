export * from './error';
export * from './health';
export * from './federation';
export * from './autoscaler';
export * from './machine';
export * from './fleet';
export * from './hpa';
export * from './preview';
