import { copyDocsAssets } from "../../scripts/docs-assets.ts";
import { writeRankBinaries } from "../../scripts/rank-binaries.ts";

/**
 * Global setup of the projects that read what a Worker build writes: no processes, only files.
 * The rank tables' binaries (wrangler's build step writes them; test/unit/rank-tables.test.ts checks
 * them and the workers pool bundles them) and public/, which the workers pool serves as wrangler does.
 */
export default async function setup(): Promise<void> {
  copyDocsAssets();
  await writeRankBinaries();
}
