export * from './metadata';
export * from './status-codec';
export * from './server';
export * from './client';
export * from './types';
export * from './client-set';
export * from './contracts';
export * from './rpc-clients';
