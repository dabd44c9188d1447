// A user's TypeScript program on the installed package @fbe-toolkit/fbe and the code
// `fbec --typescript` generated into src/gen/: reads a shop.Order (versioned model) from the file
// named first and writes it back to the second.
import { readFileSync, writeFileSync } from "node:fs";
import { Order } from "./gen/shop.js";

const [input, output] = process.argv.slice(2);
if (input === undefined || output === undefined) {
    throw new Error("usage: node dist/main.js IN OUT");
}
writeFileSync(output, Order.fromFbe(new Uint8Array(readFileSync(input))).toFbe());
