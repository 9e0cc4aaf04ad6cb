export { isPublicAddress } from './public-address';
export { fetchPublic, OutboundRefused, type PublicFetchOptions, type PublicResponse } from './public-fetch';
