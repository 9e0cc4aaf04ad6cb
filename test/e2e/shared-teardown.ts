import { stopShared } from './shared-setup';

/** Jest's globalTeardown: stops the instances the globalSetup started. */
export default stopShared;
