// A user's TypeScript program on the installed package @fbe-toolkit/fbe and the code
// `fbec --typescript` generated into src/gen/:
//   node dist/main.js write OUT         writes the sample shop.Order (versioned model) to OUT
//   node dist/main.js roundtrip IN OUT  reads a shop.Order from IN and writes it back to OUT
import { readFileSync, writeFileSync } from "node:fs";
import { Decimal, Uuid } from "@fbe-toolkit/fbe";
import { Cart, Color, Line, Order, Perm } from "./gen/shop.js";

function sample(): Order {
    return new Order({
        cart: new Cart({
            id: Uuid.parse("123e4567-e89b-12d3-a456-426655440000"),
            color: Color.blue,
            perm: Perm.read | Perm.write,
            note: -7,
            lines: [new Line({ sku: "A-1", qty: 2 }), new Line({ sku: "Ünï", qty: -3 })],
            prices: new Map([
                ["A-1", Decimal.parse("19.99")],
                ["B-2", Decimal.parse("-0.000001")],
                ["C", Decimal.parse("79228162514264337593543950335")],
            ]),
            at: 1_700_000_000_123_456_789n,
        }),
    });
}

const [mode, first, second] = process.argv.slice(2);
if (first === undefined || (mode === "roundtrip" && second === undefined)) {
    throw new Error("usage: node dist/main.js write OUT | roundtrip IN OUT");
}
const order = mode === "roundtrip" ? Order.fromFbe(new Uint8Array(readFileSync(first))) : sample();
writeFileSync(second ?? first, order.toFbe());
