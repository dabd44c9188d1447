// A user's TypeScript program on the installed packages @fbe-toolkit/fbe-kafka, @fbe-toolkit/fbe and
// kafkajs, and the code `fbec --typescript --final` generated into src/gen/, without a broker: the
// messages a kafkajs producer sends and a consumer hands to eachMessage, their value and headers.
// SCHEMA is the line `fbec fingerprint shop.fbe` prints: "shop VERSION FINGERPRINT".
//   node dist/main.js write SCHEMA IN VALUE HEADER  encodes the shop.Order of IN (versioned model) into
//                                                   a message and writes its value and its fbe header's value
//   node dist/main.js read SCHEMA VALUE HEADER OUT  decodes a message of that value and fbe header and
//                                                   writes the Order to OUT; a refused record: its reason
//                                                   on stderr, exit status 1
import { readFileSync, writeFileSync } from "node:fs";
import { FbeRecordError, FbeSchema, FbeSerde, HEADER } from "@fbe-toolkit/fbe-kafka";
import type { KafkaMessage } from "kafkajs";
import { Order } from "./gen/shop.js";

const [command, line, ...files] = process.argv.slice(2);
const [packageName, version, fingerprint] = line.split(" ");
const serde = FbeSerde.of(new FbeSchema(packageName, version, fingerprint), Order);

if (command === "write") {
    const [input, value, header] = files;
    const message = serde.encode(Order.fromFbe(readFileSync(input)), { key: "1" });
    writeFileSync(value, message.value as Buffer);
    const headers = message.headers ?? {};
    writeFileSync(header, headers[HEADER] as Buffer);
} else {
    const [value, header, out] = files;
    const message: Pick<KafkaMessage, "value" | "headers"> = {
        value: readFileSync(value),
        headers: { [HEADER]: readFileSync(header) },
    };
    try {
        const order = serde.decode(message);
        if (order === null) throw new Error("a tombstone: the record has no value");
        writeFileSync(out, order.toFbe());
    } catch (e) {
        if (!(e instanceof FbeRecordError)) throw e;
        console.error(e.message);
        process.exitCode = 1;
    }
}
