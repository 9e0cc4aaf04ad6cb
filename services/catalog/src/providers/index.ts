import type { ProviderDeclaration } from './declaration';
import { bulkmail } from './bulkmail';
import { dialbook } from './dialbook';
import { homebase } from './homebase';
import { linkscan } from './linkscan';
import { litepro } from './litepro';
import { mailfinder } from './mailfinder';
import { persona } from './persona';
import { pplgraph } from './pplgraph';
import { profilely } from './profilely';
import { prospectdb } from './prospectdb';
import { reachout } from './reachout';
import { ringdirect } from './ringdirect';
import { verimail } from './verimail';
import { webscout } from './webscout';

/**
 * Every vendor the catalog knows, in listing order. The asynchronous vendors (Reachout, BulkMail,
 * RingDirect: submit, then poll a job) are listed with their contracts but called only by the
 * enrichment waterfalls, which own their jobs.
 */
export const PROVIDERS: readonly ProviderDeclaration[] = [
  pplgraph,
  prospectdb,
  webscout,
  linkscan,
  mailfinder,
  reachout,
  bulkmail,
  persona,
  homebase,
  verimail,
  dialbook,
  ringdirect,
  profilely,
  litepro,
];
