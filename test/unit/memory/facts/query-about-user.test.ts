/** @module Tests of the query-side "about the user" signal that picks a recall gate. */
import { describe, expect, it } from "vitest";
import { queryAboutUser } from "../../../../src/memory/facts/query-about-user.ts";
import { recallQueryText } from "../../../../src/memory/facts/recall-query.ts";

describe("queryAboutUser", () => {
  it("holds for a question in the asker's own first person, English and Chinese", () => {
    for (const query of [
      "Where do I live?",
      "What's my husband's job?",
      "Could we adopt a kitten?",
      "Tell me about my siblings.",
      "I'm off to the dentist, what did I say about the appointment?",
      "我住在哪里？",
      "我们周末去哪儿玩？",
      "给我们推荐一家餐厅",
      "咱家的猫叫什么？",
    ]) {
      expect(queryAboutUser(query), query).toBe(true);
    }
  });

  it("does not hold for a task or a question that only addresses the assistant", () => {
    for (const query of [
      "Translate good morning into Spanish",
      "Schedule a meeting for Monday at ten",
      "Tell me a joke.",
      "Can you give me a synonym for happy?",
      "How do I undo the last git commit?",
      "Write a regular expression for a US phone number.",
      "帮我翻译这句话",
      "给我讲个笑话吧。",
      "提醒我下午五点给水管工打电话。",
      "长城有多长？",
    ]) {
      expect(queryAboutUser(query), query).toBe(false);
    }
  });

  it("ignores the first person inside the text a task works on", () => {
    expect(queryAboutUser("Proofread: I has went to the shop and my keys was lost.")).toBe(false);
    expect(queryAboutUser('Translate "I would like a table for two" into French')).toBe(false);
    expect(queryAboutUser("rephrase 'per my last email' so it sounds nicer")).toBe(false);
    expect(queryAboutUser("把这句话翻译成英文：我明天不能来开会。")).toBe(false);
    expect(queryAboutUser("“我想要一张两个人的桌子”法语怎么说")).toBe(false);
    // an apostrophe inside a word is no quotation mark
    expect(queryAboutUser("What's my husband's job?")).toBe(true);
  });

  it("reads a question about the user in the recall query text as about the user", () => {
    expect(queryAboutUser(recallQueryText("Where does the user live?"))).toBe(true);
    expect(queryAboutUser(recallQueryText("用户叫什么名字?"))).toBe(true);
  });
});
