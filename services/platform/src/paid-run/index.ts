export * from './payer';
export * from './refusal';
export * from './charges';
export * from './holds';
export * from './settlement';
export * from './run-repository';
export * from './leases';
export * from './kit';
