/** The fixed word lists companies are generated from. Changing any list changes every seed's universe. */

export const INDUSTRIES = [
  'Software',
  'Financial Services',
  'Healthcare',
  'E-commerce',
  'Logistics',
  'Education',
  'Media',
  'Manufacturing',
  'Energy',
  'Cybersecurity',
  'Real Estate',
  'Telecommunications',
  'Biotechnology',
  'Gaming',
  'Staffing',
] as const;

/** LinkedIn-style employee-count bands; firmographic filters use these labels. */
export const SIZE_BANDS: readonly { label: string; min: number; max: number }[] = [
  { label: '1-10', min: 1, max: 10 },
  { label: '11-50', min: 11, max: 50 },
  { label: '51-200', min: 51, max: 200 },
  { label: '201-500', min: 201, max: 500 },
  { label: '501-1000', min: 501, max: 1000 },
  { label: '1001-5000', min: 1001, max: 5000 },
  { label: '5001-10000', min: 5001, max: 10000 },
  { label: '10001+', min: 10001, max: Number.MAX_SAFE_INTEGER },
];

/**
 * Generated company names are three syllables, each from its own list: the first two are two
 * letters (consonant + vowel), so a name parses back to its syllables and so to its company, and
 * no generated name can spell a hard-case name (those contain consonant pairs like "cm").
 */
// prettier-ignore
export const NAME_HEADS = [
  'Ka', 'Ve', 'Lo', 'Zu', 'Ri', 'Ta', 'No', 'Be', 'Di', 'Fa', 'Gu', 'Ho', 'Ju', 'Ki', 'La', 'Mo', 'Ne', 'Pa',
  'Qu', 'Ro', 'Sa', 'Te', 'Vi', 'Wa', 'Xe', 'Yo', 'Za', 'Bo', 'Cu', 'De', 'Fe', 'Ga', 'He', 'Ji', 'Ko', 'Lu',
  'Mi', 'Nu', 'Po', 'Se',
];
// prettier-ignore
export const NAME_MIDDLES = [
  'ri', 'na', 'lo', 've', 'ta', 'mi', 'so', 'du', 'ke', 'ra', 'ni', 'po', 'le', 'zi', 'ba', 'go', 'fi', 'mu',
  'sa', 'te', 'vo', 'la', 'ne', 'ro', 'ka', 'di', 'pe', 'lu', 'mo', 'si', 'tu', 'ze', 'bi', 'da', 'fo', 'gi',
  'ho', 'ju', 'ki', 'no',
];
// prettier-ignore
export const NAME_TAILS = [
  'tex', 'via', 'ron', 'dex', 'nix', 'lia', 'gon', 'mo', 'sys', 'ly', 'ra', 'tron', 'net', 'vo', 'qo', 'lab',
  'max', 'ion', 'io', 'ware', 'ta', 'rix', 'sio', 'go', 'dyn', 'fy', 'zo', 'pex', 'lux', 'core', 'ity', 'tiv',
];
/** Words a generated company may carry after its core name; never part of the core. */
export const COMPANY_NAME_SUFFIXES = [
  '',
  '',
  '',
  'Inc',
  'Labs',
  'Systems',
  'Group',
  'Technologies',
  'Health',
  'Analytics',
];
