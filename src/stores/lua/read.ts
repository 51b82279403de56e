import { LUA_SNAPSHOT } from "./common.ts";

/**
 * Reads a whole session atomically: pinned system messages, window, summary and meta (which
 * holds the settings fields).
 *
 * KEYS: sys win sum meta
 */
export const READ_LUA = `${LUA_SNAPSHOT}
return cjson.encode(snapshot(KEYS[1], KEYS[2], KEYS[3], KEYS[4]))
`;
