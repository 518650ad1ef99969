/**
 * What a password field holds: a crypt(3) hash (and whether its scheme is weak), or not a hash at all.
 * The prefixes are those of libxcrypt's crypt(5) table of hashing methods; a leading `!` or `*` (a locked
 * account, as `passwd -l` writes it) is read through.
 */

export type CryptScheme = 'yescrypt' | 'gost-yescrypt' | 'scrypt' | 'bcrypt' | 'sha512' | 'sha256' | 'md5' | 'sun-md5' | 'nt' | 'bsdi-des' | 'des';

export interface CryptHash {
  scheme: CryptScheme;
  /** For SHA-crypt: the rounds (5,000 when the hash names none). */
  rounds?: number;
  /** Why it is weak, in words; undefined when it is not. */
  weakness?: string;
}

/** Fewer SHA-crypt rounds than the default are reported as weak (the default itself is the floor we accept). */
export const WEAK_SHA_ROUNDS_BELOW = 5000;

const B64 = '[./0-9A-Za-z]';
const SHA = new RegExp(`^\\$([56])\\$(?:rounds=(\\d+)\\$)?[^$:\\n]{0,16}\\$${B64}+$`);
const SCHEMES: Array<[RegExp, CryptScheme, string | undefined]> = [
  [new RegExp(`^\\$y\\$${B64}+\\$${B64}*\\$${B64}+$`), 'yescrypt', undefined],
  [new RegExp(`^\\$gy\\$${B64}+\\$${B64}*\\$${B64}+$`), 'gost-yescrypt', undefined],
  [new RegExp(`^\\$7\\$${B64}+\\$${B64}+$`), 'scrypt', undefined],
  [/^\$2[abxy]\$\d\d\$[./0-9A-Za-z]{53}$/, 'bcrypt', undefined],
  [new RegExp(`^\\$1\\$[^$:\\n]{0,8}\\$${B64}{22}$`), 'md5', 'MD5-crypt ($1$) is fast to brute-force on GPUs and deprecated by libxcrypt'],
  [new RegExp(`^\\$md5(?:,rounds=\\d+)?\\$[^$:\\n]*\\$\\$?${B64}{22}$`), 'sun-md5', 'Sun MD5-crypt is a weak, deprecated scheme'],
  [/^\$3\$\$[0-9a-f]{32}$/, 'nt', 'an NT hash ($3$) is unsalted MD4'],
  [new RegExp(`^_${B64}{19}$`), 'bsdi-des', 'BSDi extended DES reads at most 8 characters of each block and is fast to brute-force'],
  [new RegExp(`^${B64}{13}$`), 'des', 'traditional DES crypt uses only the first 8 characters of the password and is broken in minutes'],
];

/** The hash `value` holds, or undefined when it is not a crypt hash. */
export function cryptHashOf(value: string): CryptHash | undefined {
  const hash = value.replace(/^[!*]+/, '');
  const sha = SHA.exec(hash);
  if (sha) {
    const rounds = sha[2] === undefined ? 5000 : Math.max(1000, Number(sha[2]));
    const scheme = sha[1] === '6' ? 'sha512' : 'sha256';
    const weakness = rounds < WEAK_SHA_ROUNDS_BELOW ? `only ${rounds} rounds of SHA-crypt (the default is 5000): each guess costs less` : undefined;
    return { scheme, rounds, weakness };
  }
  for (const [pattern, scheme, weakness] of SCHEMES) if (pattern.test(hash)) return { scheme, weakness };
  return undefined;
}

/**
 * cloud-init's test for a hash in the deprecated `chpasswd: {list: ...}` form (cc_set_passwords.py, the
 * same in 22.4 through current): `re.match(r"\$(1|2a|2y|5|6)(\$.+){2}", p)` and no ':' in it. Anything else
 * there is set as a plaintext password, a yescrypt hash included.
 */
export function chpasswdListTreatsAsHash(password: string): boolean {
  return /^\$(1|2a|2y|5|6)(\$.+){2}/s.test(password) && !password.includes(':');
}
