/**
 * CPython 3.11's `list.sort` / `sorted()`: timsort with the powersort merge policy, so that a sort
 * whose comparisons are inconsistent (NaN) or raise part-way performs the same comparisons as Python
 * and ends the same way. `lt` is Python's `<` on two items; what it throws propagates, as in Python.
 *
 * Residual differences: none known (the YAML dump differential sorts keys with it).
 */
// same comparisons as Python and ends the same way.

export type LessThan<T> = (x: T, y: T) => boolean;

const MIN_GALLOP = 7;

/** Returns a sorted copy, like Python's `sorted()`; exceptions from `lt` propagate. */
export function pySorted<T>(input: readonly T[], lt: LessThan<T>): T[] {
  const a = input.slice();
  const n = a.length;
  if (n < 2) return a;
  const ms: MergeState<T> = { a, lt, minGallop: MIN_GALLOP, runs: [], listLen: n };
  const minrun = computeMinrun(n);
  let lo = 0;
  let remaining = n;
  while (remaining > 0) {
    let runLen = countRun(a, lo, lo + remaining, lt);
    if (runLen < 0) {
      runLen = -runLen;
      reverse(a, lo, lo + runLen);
    }
    if (runLen < minrun) {
      const force = remaining <= minrun ? remaining : minrun;
      binarySort(a, lo, lo + force, lo + runLen, lt);
      runLen = force;
    }
    foundNewRun(ms, runLen);
    ms.runs.push({ base: lo, len: runLen, power: 0 });
    lo += runLen;
    remaining -= runLen;
  }
  // Regardless of invariants, merge everything that is left.
  const runs = ms.runs;
  while (runs.length > 1) {
    let k = runs.length - 2;
    if (k > 0 && runs[k - 1].len < runs[k + 1].len) k--;
    mergeAt(ms, k);
  }
  return a;
}

interface Run {
  base: number;
  len: number;
  power: number;
}

interface MergeState<T> {
  a: T[];
  lt: LessThan<T>;
  minGallop: number;
  runs: Run[];
  listLen: number;
}

function computeMinrun(n: number): number {
  let r = 0;
  while (n >= 64) {
    r |= n & 1;
    n = Math.floor(n / 2);
  }
  return n + r;
}

function reverse<T>(a: T[], lo: number, hi: number): void {
  for (hi--; lo < hi; lo++, hi--) {
    const t = a[lo];
    a[lo] = a[hi];
    a[hi] = t;
  }
}

/** Length of the run at `lo`; negative when it is strictly descending. */
function countRun<T>(a: T[], lo: number, hi: number, lt: LessThan<T>): number {
  lo++;
  if (lo === hi) return 1;
  let n = 2;
  if (lt(a[lo], a[lo - 1])) {
    for (lo++; lo < hi; lo++, n++) {
      if (!lt(a[lo], a[lo - 1])) break;
    }
    return -n;
  }
  for (lo++; lo < hi; lo++, n++) {
    if (lt(a[lo], a[lo - 1])) break;
  }
  return n;
}

/** Binary insertion sort of a[lo:hi], where a[lo:start] is already sorted. */
function binarySort<T>(a: T[], lo: number, hi: number, start: number, lt: LessThan<T>): void {
  if (start === lo) start++;
  for (; start < hi; start++) {
    let l = lo;
    let r = start;
    const pivot = a[r];
    do {
      const p = l + ((r - l) >> 1);
      if (lt(pivot, a[p])) r = p;
      else l = p + 1;
    } while (l < r);
    for (let p = start; p > l; p--) a[p] = a[p - 1];
    a[l] = pivot;
  }
}

/** Leftmost position k in arr[base:base+n] with arr[base+k-1] < key <= arr[base+k]. */
function gallopLeft<T>(lt: LessThan<T>, key: T, arr: T[], base: number, n: number, hint: number): number {
  let lastofs = 0;
  let ofs = 1;
  if (lt(arr[base + hint], key)) {
    const maxofs = n - hint;
    while (ofs < maxofs) {
      if (lt(arr[base + hint + ofs], key)) {
        lastofs = ofs;
        ofs = ofs * 2 + 1;
      } else break;
    }
    if (ofs > maxofs) ofs = maxofs;
    lastofs += hint;
    ofs += hint;
  } else {
    const maxofs = hint + 1;
    while (ofs < maxofs) {
      if (lt(arr[base + hint - ofs], key)) break;
      lastofs = ofs;
      ofs = ofs * 2 + 1;
    }
    if (ofs > maxofs) ofs = maxofs;
    const k = lastofs;
    lastofs = hint - ofs;
    ofs = hint - k;
  }
  lastofs++;
  while (lastofs < ofs) {
    const m = lastofs + ((ofs - lastofs) >> 1);
    if (lt(arr[base + m], key)) lastofs = m + 1;
    else ofs = m;
  }
  return ofs;
}

/** Rightmost position k in arr[base:base+n] with arr[base+k-1] <= key < arr[base+k]. */
function gallopRight<T>(lt: LessThan<T>, key: T, arr: T[], base: number, n: number, hint: number): number {
  let lastofs = 0;
  let ofs = 1;
  if (lt(key, arr[base + hint])) {
    const maxofs = hint + 1;
    while (ofs < maxofs) {
      if (lt(key, arr[base + hint - ofs])) {
        lastofs = ofs;
        ofs = ofs * 2 + 1;
      } else break;
    }
    if (ofs > maxofs) ofs = maxofs;
    const k = lastofs;
    lastofs = hint - ofs;
    ofs = hint - k;
  } else {
    const maxofs = n - hint;
    while (ofs < maxofs) {
      if (lt(key, arr[base + hint + ofs])) break;
      lastofs = ofs;
      ofs = ofs * 2 + 1;
    }
    if (ofs > maxofs) ofs = maxofs;
    lastofs += hint;
    ofs += hint;
  }
  lastofs++;
  while (lastofs < ofs) {
    const m = lastofs + ((ofs - lastofs) >> 1);
    if (lt(key, arr[base + m])) ofs = m;
    else lastofs = m + 1;
  }
  return ofs;
}

/** Depth of the boundary between two adjacent runs in the conceptual merge tree. */
function powerloop(s1: number, n1: number, n2: number, n: number): number {
  let result = 0;
  let a = 2 * s1 + n1;
  let b = a + n1 + n2;
  for (;;) {
    result++;
    if (a >= n) {
      a -= n;
      b -= n;
    } else if (b >= n) {
      break;
    }
    a *= 2;
    b *= 2;
  }
  return result;
}

function foundNewRun<T>(ms: MergeState<T>, n2: number): void {
  const runs = ms.runs;
  if (runs.length === 0) return;
  const top = runs[runs.length - 1];
  const power = powerloop(top.base, top.len, n2, ms.listLen);
  while (runs.length > 1 && runs[runs.length - 2].power > power) mergeAt(ms, runs.length - 2);
  runs[runs.length - 1].power = power;
}

function mergeAt<T>(ms: MergeState<T>, i: number): void {
  const { a, lt, runs } = ms;
  let ssa = runs[i].base;
  let na = runs[i].len;
  const ssb = runs[i + 1].base;
  let nb = runs[i + 1].len;
  runs[i].len = na + nb;
  runs.splice(i + 1, 1);

  const k = gallopRight(lt, a[ssb], a, ssa, na, 0);
  ssa += k;
  na -= k;
  if (na === 0) return;
  nb = gallopLeft(lt, a[ssa + na - 1], a, ssb, nb, nb - 1);
  if (nb <= 0) return;
  if (na <= nb) mergeLo(ms, ssa, na, ssb, nb);
  else mergeHi(ms, ssa, na, ssb, nb);
}

function mergeLo<T>(ms: MergeState<T>, ssa: number, na: number, ssb: number, nb: number): void {
  const { a, lt } = ms;
  const tmp = a.slice(ssa, ssa + na);
  let pa = 0;
  let pb = ssb;
  let dest = ssa;
  let minGallop: number;

  a[dest++] = a[pb++];
  nb--;
  if (nb === 0) return succeed();
  if (na === 1) return copyB();

  minGallop = ms.minGallop;
  for (;;) {
    let acount = 0;
    let bcount = 0;
    for (;;) {
      if (lt(a[pb], tmp[pa])) {
        a[dest++] = a[pb++];
        bcount++;
        acount = 0;
        nb--;
        if (nb === 0) return succeed();
        if (bcount >= minGallop) break;
      } else {
        a[dest++] = tmp[pa++];
        acount++;
        bcount = 0;
        na--;
        if (na === 1) return copyB();
        if (acount >= minGallop) break;
      }
    }
    minGallop++;
    do {
      if (minGallop > 1) minGallop--;
      ms.minGallop = minGallop;
      let k = gallopRight(lt, a[pb], tmp, pa, na, 0);
      acount = k;
      if (k) {
        for (let j = 0; j < k; j++) a[dest + j] = tmp[pa + j];
        dest += k;
        pa += k;
        na -= k;
        if (na === 1) return copyB();
        if (na === 0) return succeed();
      }
      a[dest++] = a[pb++];
      nb--;
      if (nb === 0) return succeed();

      k = gallopLeft(lt, tmp[pa], a, pb, nb, 0);
      bcount = k;
      if (k) {
        a.copyWithin(dest, pb, pb + k);
        dest += k;
        pb += k;
        nb -= k;
        if (nb === 0) return succeed();
      }
      a[dest++] = tmp[pa++];
      na--;
      if (na === 1) return copyB();
    } while (acount >= MIN_GALLOP || bcount >= MIN_GALLOP);
    minGallop++;
    ms.minGallop = minGallop;
  }

  function succeed(): void {
    for (let j = 0; j < na; j++) a[dest + j] = tmp[pa + j];
  }
  function copyB(): void {
    a.copyWithin(dest, pb, pb + nb);
    a[dest + nb] = tmp[pa];
  }
}

function mergeHi<T>(ms: MergeState<T>, ssa: number, na: number, ssb: number, nb: number): void {
  const { a, lt } = ms;
  const tmp = a.slice(ssb, ssb + nb);
  const basea = ssa;
  let dest = ssb + nb - 1;
  let pa = ssa + na - 1;
  let pb = nb - 1;
  let minGallop: number;

  a[dest--] = a[pa--];
  na--;
  if (na === 0) return succeed();
  if (nb === 1) return copyA();

  minGallop = ms.minGallop;
  for (;;) {
    let acount = 0;
    let bcount = 0;
    for (;;) {
      if (lt(tmp[pb], a[pa])) {
        a[dest--] = a[pa--];
        acount++;
        bcount = 0;
        na--;
        if (na === 0) return succeed();
        if (acount >= minGallop) break;
      } else {
        a[dest--] = tmp[pb--];
        bcount++;
        acount = 0;
        nb--;
        if (nb === 1) return copyA();
        if (bcount >= minGallop) break;
      }
    }
    minGallop++;
    do {
      if (minGallop > 1) minGallop--;
      ms.minGallop = minGallop;
      let k = gallopRight(lt, tmp[pb], a, basea, na, na - 1);
      k = na - k;
      acount = k;
      if (k) {
        dest -= k;
        pa -= k;
        a.copyWithin(dest + 1, pa + 1, pa + 1 + k);
        na -= k;
        if (na === 0) return succeed();
      }
      a[dest--] = tmp[pb--];
      nb--;
      if (nb === 1) return copyA();

      k = gallopLeft(lt, a[pa], tmp, 0, nb, nb - 1);
      k = nb - k;
      bcount = k;
      if (k) {
        dest -= k;
        pb -= k;
        for (let j = 1; j <= k; j++) a[dest + j] = tmp[pb + j];
        nb -= k;
        if (nb === 1) return copyA();
        if (nb === 0) return succeed();
      }
      a[dest--] = a[pa--];
      na--;
      if (na === 0) return succeed();
    } while (acount >= MIN_GALLOP || bcount >= MIN_GALLOP);
    minGallop++;
    ms.minGallop = minGallop;
  }

  function succeed(): void {
    const start = dest - (nb - 1);
    for (let j = 0; j < nb; j++) a[start + j] = tmp[j];
  }
  function copyA(): void {
    a.copyWithin(dest + 1 - na, pa + 1 - na, pa + 1);
    dest -= na;
    pa -= na;
    a[dest] = tmp[pb];
  }
}
