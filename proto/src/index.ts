// One namespace per contract package; services import from here and never keep copies.
export * as common from './gen/rde/common/v1/common';
export * as auth from './gen/rde/auth/v1/auth';
export * as billing from './gen/rde/billing/v1/billing';
export * as catalog from './gen/rde/catalog/v1/catalog';
export * as waterfall from './gen/rde/waterfall/v1/waterfall';
export * as dataset from './gen/rde/dataset/v1/dataset';
export * as workflow from './gen/rde/workflow/v1/workflow';
export * as mcp from './gen/rde/mcp/v1/mcp';
export { protoRoot, protoFileOf } from './files';
export * as billingEvents from './gen/rde/billing/v1/events';
export * as billingCaps from './gen/rde/billing/v1/caps';
export * as billingSessions from './gen/rde/billing/v1/sessions';
export * as billingSubscriptions from './gen/rde/billing/v1/subscriptions';
export * as billingOverview from './gen/rde/billing/v1/overview';
export * as signin from './gen/rde/auth/v1/signin';
export * as topics from './topics';
export * as publicJson from './public-json';
export * as publicSchemas from './public-schemas';
