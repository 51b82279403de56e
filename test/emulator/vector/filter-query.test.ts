import { Index } from "@upstash/vector";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startVectorEmulator, type VectorEmulator } from "../../../tools/upstash-local/vector/standalone.ts";

let emu: VectorEmulator;
let index: Index;

const cities = [
  {
    id: "istanbul",
    metadata: {
      city: "Istanbul",
      country: "Turkey",
      population: 15460000,
      capital: false,
      tags: ["sea", "old"],
      geo: { continent: "Asia" },
    },
  },
  {
    id: "ankara",
    metadata: { city: "Ankara", country: "Turkey", population: 5663000, capital: true, tags: ["inland"], geo: { continent: "Asia" } },
  },
  {
    id: "paris",
    metadata: {
      city: "Paris",
      country: "France",
      population: 2161000,
      capital: true,
      tags: ["river", "old"],
      geo: { continent: "Europe" },
    },
  },
  {
    id: "lyon",
    metadata: {
      city: "Lyon",
      country: "France",
      population: 513000,
      capital: false,
      tags: ["river"],
      geo: { continent: "Europe" },
      mayor: "Doucet",
    },
  },
  {
    id: "tokyo",
    metadata: { city: "Tokyo", country: "Japan", population: 13960000, capital: true, tags: [], geo: { continent: "Asia" }, zh: "东京" },
  },
];

/** Ids matching a filter, sorted (every vector is the same, so only the filter decides). */
async function ids(filter: string): Promise<string[]> {
  const hits = await index.query({ vector: [1, 0], topK: 100, filter });
  return hits.map((h) => String(h.id)).sort();
}

beforeAll(async () => {
  emu = await startVectorEmulator({ index: { kind: "dense", dimension: 2 } });
  index = new Index({ url: emu.url, token: emu.token });
  await index.upsert(cities.map((c) => ({ ...c, vector: [1, 0] })));
});
afterAll(async () => {
  await emu.close();
});

describe("metadata filters through query", () => {
  it("= and !=", async () => {
    expect(await ids("country = 'France'")).toEqual(["lyon", "paris"]);
    expect(await ids('country != "France"')).toEqual(["ankara", "istanbul", "tokyo"]);
    expect(await ids("capital = true")).toEqual(["ankara", "paris", "tokyo"]);
    expect(await ids("capital = 0")).toEqual(["istanbul", "lyon"]);
  });

  it("< <= > >=", async () => {
    expect(await ids("population > 13960000")).toEqual(["istanbul"]);
    expect(await ids("population >= 13960000")).toEqual(["istanbul", "tokyo"]);
    expect(await ids("population < 2161000")).toEqual(["lyon"]);
    expect(await ids("population <= 2161000")).toEqual(["lyon", "paris"]);
  });

  it("GLOB and NOT GLOB", async () => {
    expect(await ids("city GLOB '*o*'")).toEqual(["lyon", "tokyo"]);
    expect(await ids("city GLOB '[A-L]*'")).toEqual(["ankara", "istanbul", "lyon"]);
    expect(await ids("city GLOB '[^A-L]????'")).toEqual(["paris", "tokyo"]);
    expect(await ids("city NOT GLOB '*a*'")).toEqual(["lyon", "tokyo"]);
    expect(await ids("zh GLOB '东?'")).toEqual(["tokyo"]);
  });

  it("IN and NOT IN", async () => {
    expect(await ids("country IN ('Japan', 'France')")).toEqual(["lyon", "paris", "tokyo"]);
    expect(await ids("country NOT IN ('Japan', 'France')")).toEqual(["ankara", "istanbul"]);
  });

  it("CONTAINS and NOT CONTAINS", async () => {
    expect(await ids("tags CONTAINS 'old'")).toEqual(["istanbul", "paris"]);
    expect(await ids("tags NOT CONTAINS 'river'")).toEqual(["ankara", "istanbul", "tokyo"]);
  });

  it("HAS FIELD and HAS NOT FIELD", async () => {
    expect(await ids("HAS FIELD mayor")).toEqual(["lyon"]);
    expect(await ids("HAS NOT FIELD mayor")).toEqual(["ankara", "istanbul", "paris", "tokyo"]);
  });

  it("nested keys and array indexes", async () => {
    expect(await ids("geo.continent = 'Europe'")).toEqual(["lyon", "paris"]);
    expect(await ids("tags[0] = 'river'")).toEqual(["lyon", "paris"]);
    expect(await ids("tags[#-1] = 'old'")).toEqual(["istanbul", "paris"]);
  });

  it("a missing field never matches != or NOT IN", async () => {
    expect(await ids("mayor != 'Someone'")).toEqual(["lyon"]);
    expect(await ids("mayor NOT IN ('Someone')")).toEqual(["lyon"]);
  });

  it("AND binds tighter than OR; parentheses override; keywords in any case", async () => {
    expect(await ids("country = 'Japan' OR country = 'France' AND capital = true")).toEqual(["paris", "tokyo"]);
    expect(await ids("(country = 'Japan' OR country = 'France') AND capital = false")).toEqual(["lyon"]);
    expect(await ids("country = 'Turkey' and population > 10000000 or city = 'Lyon'")).toEqual(["istanbul", "lyon"]);
    expect(await ids("population > 1000000 AND (geo.continent = 'Europe' OR tags contains 'sea')")).toEqual(["istanbul", "paris"]);
  });

  it("an empty filter means no filter", async () => {
    expect(await ids("")).toHaveLength(5);
  });

  it("applies the filter before topK", async () => {
    const hits = await index.query({ vector: [1, 0], topK: 1, filter: "city = 'Tokyo'", includeMetadata: true });
    expect(hits).toEqual([{ id: "tokyo", score: 1, metadata: cities[4]?.metadata }]);
  });

  it("rejects an invalid filter with 400 and a position", async () => {
    await expect(index.query({ vector: [1, 0], topK: 1, filter: "tags = 'a' AND number IN [1, 2]" })).rejects.toThrow(
      "Invalid filter. At line 1:25 token recognition error at: '['",
    );
  });
});
