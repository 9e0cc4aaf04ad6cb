/**
 * The npm proxy's path shapes, one definition for the gateway's parameter schemas and the
 * catalog's own checks: npm's name rule (lowercase, URL-safe, optional `@scope/`, at most 214
 * characters) and a tarball file `<unscoped name>-<semantic version>.tgz`.
 */
export const NPM_PACKAGE_NAME = '^(?:@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$';
export const NPM_NAME_MAX_LENGTH = 214;
export const NPM_VERSION = '\\d{1,9}\\.\\d{1,9}\\.\\d{1,9}(?:-[0-9A-Za-z.-]{1,64})?(?:\\+[0-9A-Za-z.-]{1,64})?';
export const NPM_TARBALL_FILE = `^[a-z0-9][a-z0-9._~-]*-${NPM_VERSION}\\.tgz$`;
