/**
 * wrangler's `[build]` step (before `wrangler deploy`; `npm run dev` runs the same steps itself
 * before wrangler starts, see scripts/dev-build.ts): the API reference's browser script into
 * `public/`, and the rank tables' binaries with their hash built in.
 *
 *   node --import tsx scripts/build-assets.ts
 */
import { DOCS_SCRIPT_PATH } from "../src/http/routes/docs.ts";
import { copyDocsAssets } from "./docs-assets.ts";
import { writeRankBinaries } from "./rank-binaries.ts";

const copied = copyDocsAssets();
console.log(`docs assets: @scalar/api-reference ${copied.version} -> ${DOCS_SCRIPT_PATH} (${Math.round(copied.bytes / 1024)} KiB)`);
const written = await writeRankBinaries();
if (written.length > 0) console.log(`rank tables: wrote ${written.length} binaries`);
