import type { ProviderDeclaration } from './declaration';
import { dialbook } from './dialbook';
import { homebase } from './homebase';
import { linkscan } from './linkscan';
import { litepro } from './litepro';
import { mailfinder } from './mailfinder';
import { persona } from './persona';
import { pplgraph } from './pplgraph';
import { profilely } from './profilely';
import { prospectdb } from './prospectdb';
import { verimail } from './verimail';
import { webscout } from './webscout';

/**
 * Every vendor the catalog sells, in listing order. The sandbox's asynchronous vendors (Reachout,
 * BulkMail, RingDirect: submit, then poll a job) need provider jobs and are not sold yet.
 */
export const PROVIDERS: readonly ProviderDeclaration[] = [
  pplgraph,
  prospectdb,
  webscout,
  linkscan,
  mailfinder,
  persona,
  homebase,
  verimail,
  dialbook,
  profilely,
  litepro,
];
