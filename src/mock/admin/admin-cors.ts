import type { CorsOptions } from '../base/cors.js';

/**
 * The admin API's CORS: only for origins named explicitly (`--cors-origin`). With the API's default of any origin
 * (`*`), the admin API sends no CORS headers at all: under the public development key any web page the developer
 * opened could otherwise read the journal or `PUT /__admin/state` and wipe the store.
 */
export function adminCorsOptions(options: CorsOptions | false | undefined): CorsOptions | false {
  if (!options || options.origins === '*') return false;
  return { origins: options.origins };
}
