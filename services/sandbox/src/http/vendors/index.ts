import type { VendorDefinition } from '../vendor-kit';
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

/** Every simulated vendor, in the order the README lists them. */
export const VENDORS: readonly VendorDefinition[] = [
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
