// A user's program on the installed package @fbe-toolkit/fbe and the code `fbec --javascript`
// generated into gen/: reads a shop.Order (versioned model) from the file named first and writes
// it back to the second.
import { readFileSync, writeFileSync } from "node:fs";
import { Order } from "./gen/shop.js";

const [input, output] = process.argv.slice(2);
writeFileSync(output, Order.fromFbe(new Uint8Array(readFileSync(input))).toFbe());
