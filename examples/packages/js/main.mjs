// A user's program on the installed package @fbe-toolkit/fbe and the code `fbec --javascript`
// generated into gen/:
//   node main.mjs write OUT         writes the sample shop.Order (versioned model) to OUT
//   node main.mjs roundtrip IN OUT  reads a shop.Order from IN and writes it back to OUT
//   node main.mjs connect HOST:PORT IN OUT
//                                   sends the shop.Order of IN to a server over TCP (the protocol of
//                                   fbec --javascript --proto) and writes the Order it sends back to OUT
import { readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import { Decimal, Uuid } from "@fbe-toolkit/fbe";
import { Cart, Color, Line, Order, Perm, Receiver, Sender } from "./gen/shop.js";

function sample() {
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

/** Sends `order` to the server at `address` and resolves with the Order it sends back. */
function exchange(address, order) {
    const at = address.lastIndexOf(":");
    const socket = net.connect(Number(address.slice(at + 1)), address.slice(0, at));
    return new Promise((resolve, reject) => {
        const receiver = new Receiver({ onOrder: (value) => resolve(value) });
        socket.on("data", (chunk) => receiver.receive(chunk));
        socket.on("error", reject);
        socket.on("close", () => reject(new Error(`${address} closed the connection before its answer`)));
        socket.on("connect", () => new Sender(socket).send(order));
    }).finally(() => socket.end());
}

const args = process.argv.slice(2);
if (args[0] === "connect") {
    const order = await exchange(args[1], Order.fromFbe(new Uint8Array(readFileSync(args[2]))));
    writeFileSync(args[3], order.toFbe());
} else {
    const order = args[0] === "roundtrip" ? Order.fromFbe(new Uint8Array(readFileSync(args[1]))) : sample();
    writeFileSync(args[args.length - 1], order.toFbe());
}
