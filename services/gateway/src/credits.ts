import { publicJson } from '@rde/proto';

/** Public JSON shows credits as numbers; the wire carries integer millicredits. Absent stays absent. */
export const credits = publicJson.credits;
