/** @module Check digits of sensitive numbers (Luhn, IBAN mod 97, Chinese resident id, US SSN), so ordinary numbers are not taken for secrets. */

/** The Luhn check of payment card numbers: digits only. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * A payment card number: 13-19 digits, issuer digit 2-6 (Mastercard 2/5, Amex/JCB/Diners 3, Visa 4,
 * Discover/UnionPay 6), not one repeated digit, Luhn-valid. About one in ten other long numbers of
 * that shape passes by chance (see docs/security.md).
 */
export function isCardNumber(digits: string): boolean {
  return /^[2-6]\d{12,18}$/.test(digits) && !/^(\d)\1+$/.test(digits) && passesLuhn(digits);
}

/** An IBAN (spaces removed, upper or lower case): country letters, check digits, 11-30 more, mod 97 = 1. */
export function isIban(compact: string): boolean {
  const iban = compact.toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const value = ch >= "A" ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of value) remainder = (remainder * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return remainder === 1;
}

const CN_ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CN_ID_CHECK = "10X98765432";

/** A Chinese resident id (GB 11643): 17 digits with a plausible birth date, then its check character. */
export function isChineseResidentId(id: string): boolean {
  const upper = id.toUpperCase();
  if (!/^\d{17}[\dX]$/.test(upper)) return false;
  const year = Number(upper.slice(6, 10));
  const month = Number(upper.slice(10, 12));
  const day = Number(upper.slice(12, 14));
  if (year < 1900 || year > 2099 || month < 1 || month > 12 || day < 1 || day > 31) return false;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (upper.charCodeAt(i) - 48) * CN_ID_WEIGHTS[i]!;
  return CN_ID_CHECK[sum % 11] === upper[17];
}

/** A US social security number `ddd-dd-dddd` that could be issued: no 000/666/9xx area, 00 group or 0000 serial. */
export function isSsn(text: string): boolean {
  const m = /^(\d{3})-(\d{2})-(\d{4})$/.exec(text);
  if (!m) return false;
  const [, area, group, serial] = m;
  return area !== "000" && area !== "666" && !area!.startsWith("9") && group !== "00" && serial !== "0000";
}
