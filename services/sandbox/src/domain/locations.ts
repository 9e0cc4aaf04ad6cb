import { normalizeName } from './text';
import { CITIES, type City } from './vocabulary';

/**
 * The three ways vendors name places. Each resolves only its own tokens; what it cannot resolve is
 * the waterfall's `cant_scope_location`.
 */

/** Lower-case city, region or country names ("san francisco", "california", "united states"). */
export function citiesForPlaceName(token: string): string[] | undefined {
  const wanted = normalizeName(token);
  const cities = CITIES.filter((city) =>
    [city.name, city.region, city.country].some((name) => normalizeName(name) === wanted),
  );
  return cities.length > 0 ? cities.map((city) => city.name) : undefined;
}

/** Every token `citiesForPlaceName` resolves. */
export const PLACE_NAMES: readonly string[] = [
  ...new Set(CITIES.flatMap((city) => [city.name, city.region, city.country]).map(normalizeName)),
];

const PLACE_NAME_OF = new Map(
  CITIES.map((city) => [city, `${city.name}, ${city.region}, ${city.country}`.toLowerCase()]),
);

/** "san francisco, california, united states" */
export function placeName(city: City): string {
  return PLACE_NAME_OF.get(city)!;
}

export interface Metro {
  /** "US-SFBAY" */
  readonly code: string;
  readonly label: string;
  readonly cities: readonly string[];
}

export const METROS: readonly Metro[] = [...new Set(CITIES.map((city) => city.metro))].map((metro) => {
  const cities = CITIES.filter((city) => city.metro === metro);
  return {
    code: `${cities[0]!.countryCode}-${metro.replace(/-/g, '').toUpperCase()}`,
    label: cities.length > 1 ? `${cities[0]!.name} metro area` : cities[0]!.name,
    cities: cities.map((city) => city.name),
  };
});

export function metroOf(city: City): Metro {
  return METROS.find((metro) => metro.cities.includes(city.name))!;
}

/**
 * Free-text places as a web search reads them: any city named in the text brings its whole metro,
 * so "San Francisco" also returns Oakland and San Mateo, people just outside the request.
 */
export function metroCitiesIn(text: string): string[] {
  const haystack = ` ${normalizeName(text)} `;
  const named = CITIES.filter((city) => haystack.includes(` ${normalizeName(city.name)} `));
  return [...new Set(named.flatMap((city) => metroOf(city).cities))];
}
