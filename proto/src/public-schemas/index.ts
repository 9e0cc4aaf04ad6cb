// The public request contract as JSON Schema: the gateway's REST routes validate with these, and
// the mcp service's tools advertise and validate their arguments with the same (decision 0037).
export * from './billing';
export * from './common';
export * from './datasets';
export * from './enrich';
export * from './enrich-runs';
export * from './issues';
export * from './npm';
export * from './qualify';
export * from './refusals';
export * from './search';
export * from './tools';
export * from './workflows';
