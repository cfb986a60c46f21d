// Dense ids of (account, symbol): a position's id is the order of its first row.
import { scratch } from "../scratch";
import type { OrderedRows } from "./order";
import type { Alloc, Names } from "./read";

export function positionIds(rows: OrderedRows, names: Names, alloc: Alloc) {
  const { n, sym, acc } = rows;
  const nSym = names.symbols.length;
  const pos = alloc("pos", "i32", n);
  const posSymL: number[] = [];
  const posAccL: number[] = [];
  if (names.accounts.length * nSym <= 1 << 22) {
    const table = scratch("postable", "i32", names.accounts.length * nSym, -1);
    for (let k = 0; k < n; k++) {
      const key = acc[k] * nSym + sym[k];
      let p = table[key];
      if (p < 0) {
        p = table[key] = posSymL.length;
        posSymL.push(sym[k]);
        posAccL.push(acc[k]);
      }
      pos[k] = p;
    }
  } else {
    const table = new Map<number, number>();
    for (let k = 0; k < n; k++) {
      const key = acc[k] * nSym + sym[k];
      let p = table.get(key);
      if (p === undefined) {
        p = posSymL.length;
        table.set(key, p);
        posSymL.push(sym[k]);
        posAccL.push(acc[k]);
      }
      pos[k] = p;
    }
  }
  return { pos, posSym: Int32Array.from(posSymL), posAcc: Int32Array.from(posAccL), nPos: posSymL.length };
}
