import { describe, expect, it } from "vitest";
import { REDACTED, REDACTION_CATEGORIES, redactSensitive } from "../../../../src/memory/facts/sensitive.ts";
import { isCardNumber, isChineseResidentId, isIban, isSsn, passesLuhn } from "../../../../src/memory/facts/sensitive-checks.ts";

const ALL = [...REDACTION_CATEGORIES];
const redact = (text: string) => redactSensitive(text, ALL).text;

describe("check digits", () => {
  it("Luhn: card test numbers pass, a changed last digit fails", () => {
    for (const n of ["4111111111111111", "5555555555554444", "378282246310005", "6011111111111117", "6222020012345671"]) {
      expect(passesLuhn(n), n).toBe(true);
      expect(isCardNumber(n), n).toBe(true);
    }
    for (const n of ["4111111111111112", "5555555555554445", "6222020012345672"]) expect(isCardNumber(n), n).toBe(false);
    // issuer digit outside 2-6, or one digit repeated: not a card even when the sum works
    expect(isCardNumber("0000000000000000")).toBe(false);
    expect(isCardNumber("4444444444444448")).toBe(passesLuhn("4444444444444448"));
    expect(isCardNumber("9780306406157")).toBe(false);
  });

  it("IBAN mod 97", () => {
    expect(isIban("GB82WEST12345698765432")).toBe(true);
    expect(isIban("DE89370400440532013000")).toBe(true);
    expect(isIban("fr1420041010050500013m02606")).toBe(true);
    expect(isIban("GB82WEST12345698765433")).toBe(false);
    expect(isIban("GB82")).toBe(false);
  });

  it("Chinese resident id: check character and birth date", () => {
    expect(isChineseResidentId("11010519491231002X")).toBe(true);
    expect(isChineseResidentId("11010519491231002x")).toBe(true);
    expect(isChineseResidentId("440308199901011234")).toBe(true);
    expect(isChineseResidentId("110105194912310021")).toBe(false);
    // right shape, impossible month
    expect(isChineseResidentId("110105194913310027")).toBe(false);
  });

  it("SSN: areas and groups never issued are not SSNs", () => {
    expect(isSsn("123-45-6789")).toBe(true);
    for (const n of ["000-12-3456", "666-12-3456", "912-34-5678", "123-00-4567", "123-45-0000"]) expect(isSsn(n), n).toBe(false);
  });
});

describe("redactSensitive: credentials", () => {
  it.each([
    ["My password is hunter2 and I live in Lyon", `My password is ${REDACTED} and I live in Lyon`],
    ["my password for gmail is s3cret!", `my password for gmail is ${REDACTED}!`],
    ["I set my password to Tr0ub4dor", `I set my password to ${REDACTED}`],
    ["My passphrase is correct horse battery staple, and I like tea", `My passphrase is ${REDACTED}, and I like tea`],
    ["my PIN is 4321", `my PIN is ${REDACTED}`],
    ["my bank PIN 9876", `my bank PIN ${REDACTED}`],
    ["My API key is sk-live-abc123def456ghi", `My API key is ${REDACTED}`],
    ["use sk-proj-AbCdEf0123456789 for the demo", `use ${REDACTED} for the demo`],
    ["token ghp_abcdefghijklmnopqrstuvwxyz0123", `token ${REDACTED}`],
    ["the bot uses xoxb-123456789012-abcdefghij", `the bot uses ${REDACTED}`],
    ["AKIAIOSFODNN7EXAMPLE is my key id", `${REDACTED} is my key id`],
    ["Authorization: Bearer abc.def.ghi12345", `Authorization: ${REDACTED}`],
    ["jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U ok", `jwt ${REDACTED} ok`],
    ["-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\n-----END RSA PRIVATE KEY----- that is it", `${REDACTED} that is it`],
    ["我的密码是 hunter2", `我的密码是 ${REDACTED}`],
    ["我的密码是hunter2，我住在上海", `我的密码是${REDACTED}，我住在上海`],
    ["支付密码 123456", `支付密码 ${REDACTED}`],
    ["银行卡密码是888888", `银行卡密码是${REDACTED}`],
  ])("%j", (text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  it("keeps what describes a password without being one, and a secret said without its keyword", () => {
    for (const text of [
      "My password is too long",
      "I forgot my password yesterday",
      "My password manager is Bitwarden",
      "我的密码忘了",
      "it's hunter2", // not caught: no keyword (docs/security.md)
    ]) {
      expect(redactSensitive(text, ALL), text).toEqual({ text, found: [] });
    }
  });
});

describe("redactSensitive: cards, ids, bank accounts", () => {
  it.each([
    ["My card is 4111 1111 1111 1111, expires 12/27", `My card is ${REDACTED}, expires 12/27`],
    ["card 5555-5555-5555-4444", `card ${REDACTED}`],
    ["amex 378282246310005", `amex ${REDACTED}`],
    ["the cvv is 123", `the cvv is ${REDACTED}`],
    ["My SSN is 123-45-6789", `My SSN is ${REDACTED}`],
    ["ssn 123 45 6789", `ssn ${REDACTED}`],
    ["我的身份证号是11010519491231002X", `我的身份证号是${REDACTED}`],
    ["身份证 440308199901011234 在钱包里", `身份证 ${REDACTED} 在钱包里`],
    ["passport number E12345678", `passport number ${REDACTED}`],
    ["我的护照号是E12345678", `我的护照号是${REDACTED}`],
    ["IBAN DE89 3704 0044 0532 0130 00 please", `IBAN ${REDACTED} please`],
    ["pay to GB82WEST12345698765432 by Friday", `pay to ${REDACTED} by Friday`],
    ["account number 12345678", `account number ${REDACTED}`],
    ["银行卡号 6222 0200 1234 5678 901", `银行卡号 ${REDACTED}`],
    ["我的账号是 6228480012345678903", `我的账号是 ${REDACTED}`],
  ])("%j", (text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  it("leaves ordinary numbers: years, phone numbers, postal codes, order numbers that fail Luhn, invalid ids", () => {
    for (const text of [
      "I was born in 1987 and my phone is 13800138000",
      "我的手机号是13800138000",
      "call 415-555-0199",
      "+86 138 0013 8000",
      "My PIN code area is 94107",
      "zip 94107, order #100234567",
      "order 4111 1111 1111 1112 shipped",
      "tracking 1234567890123",
      "GB82 WEST 1234 5698 7654 33",
      "110105194912310021",
      "000-12-3456",
      "My passport number ends in 4411.",
      "We met on 2024-05-17 at 14:05",
    ]) {
      expect(redact(text), text).toBe(text);
    }
  });

  it("redacts only the categories asked for; none at all with an empty list", () => {
    const text = "My password is hunter2 and my card is 4111 1111 1111 1111";
    expect(redactSensitive(text, ["cards"])).toEqual({ text: `My password is hunter2 and my card is ${REDACTED}`, found: ["cards"] });
    expect(redactSensitive(text, ["credentials"]).text).toBe(`My password is ${REDACTED} and my card is 4111 1111 1111 1111`);
    expect(redactSensitive(text, [])).toEqual({ text, found: [] });
  });

  it("is idempotent: a redacted text stays as it is", () => {
    const once = redact("我的密码是hunter2，卡号 4111111111111111，SSN 123-45-6789");
    expect(once).not.toMatch(/hunter2|4111|6789/);
    expect(redact(once)).toBe(once);
  });
});
