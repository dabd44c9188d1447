// Preloaded into jsfuzz (node -r): Math.random from JSFUZZ_SEED, so that its choices of inputs and
// mutations, and so a run of JSFUZZ_RUNS inputs, are the same every time (xorshift32).
"use strict";
const text = process.env.JSFUZZ_SEED;
if (text !== undefined && text !== "") {
  let s = Number(text) >>> 0 || 1;
  Math.random = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}
