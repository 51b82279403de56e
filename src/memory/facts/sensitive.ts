/**
 * @module Redaction of sensitive data (credentials, payment cards, government ids, bank accounts) in
 * English and Chinese text: a documented table of patterns, numbers checked by their check digits.
 */
import { isCardNumber, isChineseResidentId, isIban, isSsn } from "./sensitive-checks.ts";

/** What redaction can look for; `REDACT` names a subset (docs/security.md lists every pattern). */
export const REDACTION_CATEGORIES = ["credentials", "cards", "ids", "bank"] as const;
export type RedactionCategory = (typeof REDACTION_CATEGORIES)[number];

/** What a secret is replaced with. */
export const REDACTED = "[redacted]";

/** A part of the text to replace. */
interface Span {
  start: number;
  end: number;
}

/** One rule: where in a text it finds secrets. */
interface Rule {
  category: RedactionCategory;
  /** For docs and tests. */
  name: string;
  find(text: string): Span[];
}

/** Words after "password is" that describe the password instead of being it ("my password is too long"). */
const NOT_A_VALUE =
  "(?:not|too|very|so|the|a|an|same|different|wrong|correct|right|strong|weak|secure|safe|long|short|expired|saved|stored|changed|reset|forgotten|required|needed|incorrect|invalid|easy|hard|something|written|in|on|at|still|also|my|your|their|his|her|our|it|that|this|what|which|hidden|private|secret|confidential)\\b";

/** "is", ":", "=" between a keyword and its value; an English keyword may name what it is for first ("password for Gmail is"). */
const EN_QUALIFIER = "(?:\\s+(?:for|on|of|at|to)(?:\\s+[\\w.@'-]+){1,3}?)?";
const EN_CONNECTOR = `${EN_QUALIFIER}(?:\\s*(?:is|was|=|:|：)\\s*(?:now\\s+|still\\s+|just\\s+)?|\\s+(?=[^\\s]*\\d))`;
const ZH_CONNECTOR = "\\s*(?:是|为|就是|改成了?|改为|：|:|=)?\\s*";

/**
 * A keyword rule: `keywords`, a connector, then the value (the only part replaced): a number with
 * spaces or dashes, or one token holding no sentence punctuation (and, without a connector word, at
 * least one digit). `hint` must match wherever `keywords` does.
 */
function keywordRule(category: RedactionCategory, name: string, hint: RegExp, keywords: string, connector: string, value: string): Rule {
  const pattern = new RegExp(`(${keywords})(${connector})(${value})`, "giu");
  return {
    category,
    name,
    find(text) {
      // `hint` is a cheap test for the keyword: most texts never run the full pattern
      if (!hint.test(text)) return [];
      const spans: Span[] = [];
      for (const m of text.matchAll(pattern)) {
        const start = m.index + m[1]!.length + m[2]!.length;
        // a token's closing quote or full stop is punctuation, not part of the secret
        const raw = m[3]!.replace(/["'”’.!?]+$/u, "").replace(/^["'“‘]+/u, "");
        if (raw === "" || raw === REDACTED) continue;
        const offset = m[3]!.indexOf(raw);
        spans.push({ start: start + offset, end: start + offset + raw.length });
      }
      return spans;
    },
  };
}

/** A format rule: every match of `pattern` that `valid` accepts (default: all) is replaced whole. */
function formatRule(category: RedactionCategory, name: string, pattern: RegExp, valid: (match: string) => boolean = () => true): Rule {
  return {
    category,
    name,
    find(text) {
      return [...text.matchAll(pattern)].filter((m) => valid(m[0])).map((m) => ({ start: m.index, end: m.index + m[0].length }));
    },
  };
}

const TOKEN_VALUE = `(?!${NOT_A_VALUE})["'“‘]?[^\\s"'”’,;，。；、]+`;
/** Chinese text around an ASCII secret: the value ends at the first space, Chinese character or comma. */
const ZH_ASCII = "[^\\s,;，。；、\\u0080-\\uFFFF]";
const ZH_TOKEN_VALUE = `${ZH_ASCII}*\\d${ZH_ASCII}*|${ZH_ASCII}{4,}`;
const DIGITS_VALUE = "\\d(?:[ -]?\\d){5,33}";
const ID_VALUE = "(?=[A-Za-z-]{0,4}\\d)[A-Za-z0-9](?:[A-Za-z0-9]|[ -](?=\\d)){4,29}";

/**
 * Runs of digit groups ("4111 1111 1111 1111", "4111-1111-1111-1111", "4111111111111111"):
 * every stretch of whole groups that is a card number ({@link isCardNumber}) is a secret.
 */
const cardNumbers: Rule = {
  category: "cards",
  name: "card number (Luhn)",
  find(text) {
    const spans: Span[] = [];
    if (!/(?:\d[ -]?){13}/u.test(text)) return spans;
    for (const run of text.matchAll(/(?<![\d.,])\d+(?:[ -]\d+)*(?![\d])/gu)) {
      const groups = [...run[0].matchAll(/\d+/gu)].map((g) => ({
        start: run.index + g.index,
        end: run.index + g.index + g[0].length,
        digits: g[0],
      }));
      for (let i = 0; i < groups.length; i++) {
        // the longest stretch from this group on that is a card number
        for (let j = groups.length - 1; j >= i; j--) {
          const digits = groups
            .slice(i, j + 1)
            .map((g) => g.digits)
            .join("");
          if (digits.length > 19 || !isCardNumber(digits)) continue;
          spans.push({ start: groups[i]!.start, end: groups[j]!.end });
          i = j;
          break;
        }
      }
    }
    return spans;
  },
};

/** IBANs, printed compact or in groups of four; a trailing word in capitals is not taken along. */
const ibans: Rule = {
  category: "bank",
  name: "IBAN (mod 97)",
  find(text) {
    const spans: Span[] = [];
    for (const m of text.matchAll(/\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,34}/gu)) {
      for (let end = m[0].length; end >= 15; end--) {
        const candidate = m[0].slice(0, end);
        const next = m[0][end];
        if ((next === undefined || next === " ") && isIban(candidate.replace(/ /g, ""))) {
          spans.push({ start: m.index, end: m.index + end });
          break;
        }
      }
    }
    return spans;
  },
};

/** Every rule, in the order of docs/security.md. */
export const REDACTION_RULES: readonly Rule[] = [
  // credentials
  keywordRule(
    "credentials",
    "passphrase (to the end of the clause)",
    /phrase/iu,
    "\\bpass\\s?phrase",
    EN_CONNECTOR,
    "(?!\\s)(?!(?:not|too|very|wrong|expired|saved|stored|written|still|also)\\b)[^,;，。；\\n]+?(?=\\s+(?:and|but)\\s|[,;，。；\\n]|[.!?](?:\\s|$)|$)",
  ),
  keywordRule(
    "credentials",
    "password, PIN, key or token after its keyword",
    /pass|pwd|pin|secret|key|token|code|otp/iu,
    "\\b(?:(?:wi-?fi\\s+|login\\s+|account\\s+|email\\s+)?pass(?:word|code)s?|pwd|pin(?:\\s*(?:code|number))?|secret(?:\\s+key)?|(?:api|access|secret|private|license|licence)[\\s_-]?key|(?:access|auth|api|bearer|refresh|session|github|slack)[\\s_-]?token|token|(?:verification|login|recovery|backup|2fa|mfa|one[\\s-]time)\\s+code|otp)\\b",
    EN_CONNECTOR,
    TOKEN_VALUE,
  ),
  keywordRule(
    "credentials",
    "password or PIN set to a value",
    /pass|pin/iu,
    "\\b(?:set|change|changed|reset|update|updated)\\s+(?:my|the|our|his|her|their)?\\s*(?:password|passcode|pin)\\s+to\\s+",
    "",
    TOKEN_VALUE,
  ),
  keywordRule(
    "credentials",
    "密码 / PIN / 验证码 / 密钥 after its keyword",
    /密码|口令|码|密钥|秘钥|私钥|令牌/u,
    "(?:支付|登录|登陆|取款|交易|银行卡|开机|锁屏|邮箱|wifi|WiFi)?密码|口令|PIN码|pin码|验证码|动态码|密钥|秘钥|私钥|令牌",
    ZH_CONNECTOR,
    ZH_TOKEN_VALUE,
  ),
  formatRule(
    "credentials",
    "OpenAI / Stripe style key (sk-..., sk_live_..., rk_/pk_live_...)",
    /\b(?:sk-(?:live-|test-|proj-|ant-)?[A-Za-z0-9_-]{8,}|[spr]k_(?:live|test)_[A-Za-z0-9]{8,})/gu,
  ),
  formatRule("credentials", "GitHub token (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_)", /\b(?:gh[pousr]|github_pat)_[A-Za-z0-9_]{16,}/gu),
  formatRule("credentials", "Slack token (xoxb-, xoxp-, xoxa-, xoxr-, xoxs-)", /\bxox[abprs]-[A-Za-z0-9-]{10,}/gu),
  formatRule("credentials", "AWS access key id (AKIA..., ASIA...)", /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/gu),
  formatRule("credentials", "Google API key (AIza...)", /\bAIza[0-9A-Za-z_-]{35}/gu),
  formatRule("credentials", "JSON Web Token (eyJ....eyJ....sig)", /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/gu),
  formatRule("credentials", "Bearer credential", /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gu),
  formatRule(
    "credentials",
    "private key block",
    /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/gu,
  ),
  // payment cards
  cardNumbers,
  keywordRule(
    "cards",
    "card number after its keyword (no Luhn check)",
    /card|信用卡|借记卡/iu,
    "\\b(?:(?:credit|debit|bank|visa|mastercard|amex)\\s+)?card\\s*(?:number|no\\.?|#)|\\b(?:credit|debit)\\s+card|信用卡号?|借记卡号?",
    `${EN_QUALIFIER}\\s*(?:is|was|是|为|:|：|=)?\\s*`,
    "\\d(?:[ -]?\\d){11,18}",
  ),
  keywordRule(
    "cards",
    "card security code (CVV, CVC)",
    /cv[vc]|security|安全码/iu,
    "\\b(?:cvv2?|cvc2?|card\\s+security\\s+code)\\b|安全码",
    "\\s*(?:is|was|是|为|:|：|=)?\\s*",
    "\\d{3,4}(?!\\d)",
  ),
  // government ids
  formatRule("ids", "US social security number ddd-dd-dddd", /(?<![\d-])\d{3}-\d{2}-\d{4}(?![\d-])/gu, isSsn),
  formatRule(
    "ids",
    "Chinese resident id (18 characters, check character)",
    /(?<![0-9A-Za-z])\d{17}[\dXx](?![0-9A-Za-z])/gu,
    isChineseResidentId,
  ),
  keywordRule(
    "ids",
    "passport, ID, SSN or licence number after its keyword",
    /passport|id|ssn|social|licen|tax/iu,
    "\\b(?:passport(?:\\s+(?:number|no\\.?|#))?|(?:national\\s+|personal\\s+)?id(?:entity)?(?:\\s+card)?\\s*(?:number|no\\.?|#)|ssn|social\\s+security\\s+(?:number|no\\.?|#)?|driver'?s?\\s+licen[cs]e(?:\\s+(?:number|no\\.?|#))?|tax\\s+id(?:\\s+number)?)",
    `${EN_QUALIFIER}(?:\\s*(?:is|was|=|:|：)\\s*|\\s+)`,
    ID_VALUE,
  ),
  keywordRule(
    "ids",
    "身份证号 / 护照号 / 驾驶证号 / 社保号 after its keyword",
    /身份证|护照|驾驶证|驾照|社保|社会保障/u,
    "身份证(?:号码|号)?|护照(?:号码|号)?|驾驶证号码?|驾照号码?|社保卡?号码?|社会保障号码?",
    ZH_CONNECTOR,
    ID_VALUE,
  ),
  // bank accounts
  ibans,
  keywordRule(
    "bank",
    "account or routing number after its keyword",
    /account|acct|routing|sort/iu,
    "\\b(?:(?:bank|checking|savings|brokerage)\\s+)?(?:account|acct\\.?)\\s*(?:number|no\\.?|#)|\\brouting\\s+(?:number|no\\.?)|\\bsort\\s+code",
    `${EN_QUALIFIER}(?:\\s*(?:is|was|=|:|：)\\s*|\\s+)`,
    DIGITS_VALUE,
  ),
  keywordRule(
    "bank",
    "账号 / 银行卡号 after its keyword",
    /卡号|账号|账户/u,
    "银行卡号码?|银行账号|银行账户|账户号码?|开户账号|卡号|账号",
    ZH_CONNECTOR,
    DIGITS_VALUE,
  ),
];

/**
 * What every rule needs somewhere in the text: a digit, or a keyword or prefix of a secret without
 * one. A text with none of them (most facts) skips the table: recall runs this on every candidate.
 */
const MAY_HOLD_SECRET =
  /\d|pass|pwd|pin|secret|key|token|code|otp|sk-|k_(?:live|test)|gh[pousr]_|github_pat|xox|AKIA|ASIA|AIza|eyJ|bearer|PRIVATE|密码|口令|码|密钥|秘钥|私钥|令牌/iu;

/** What {@link redactSensitive} found. */
export interface Redaction {
  /** The text with every secret replaced by {@link REDACTED}. */
  text: string;
  /** Categories that had something to replace (empty: the text is unchanged). */
  found: RedactionCategory[];
}

/**
 * Replaces every secret of the given categories with {@link REDACTED}, keeping the rest of the
 * text: "My password is hunter2 and I live in Lyon" -> "My password is [redacted] and I live in
 * Lyon". Overlapping finds are merged into one replacement.
 */
export function redactSensitive(text: string, categories: readonly RedactionCategory[]): Redaction {
  if (categories.length === 0 || !MAY_HOLD_SECRET.test(text)) return { text, found: [] };
  const spans: (Span & { category: RedactionCategory })[] = [];
  for (const rule of REDACTION_RULES) {
    if (!categories.includes(rule.category)) continue;
    for (const span of rule.find(text)) if (span.end > span.start) spans.push({ ...span, category: rule.category });
  }
  if (spans.length === 0) return { text, found: [] };
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = "";
  let at = 0;
  for (const span of spans) {
    if (span.end <= at) continue;
    out += text.slice(at, Math.max(at, span.start)) + (span.start >= at ? REDACTED : "");
    at = span.end;
  }
  out += text.slice(at);
  return { text: out, found: [...new Set(spans.map((s) => s.category))] };
}
