// What the tests of the JS serde share: the trade schema's fingerprint (make kafka-js passes what
// `fbec fingerprint schemas/trade.fbe` prints), its schema as the generated module names it and the
// Account every language's Kafka tests send.
import * as proto from "../gen/proto.js";
import { Account, Balance, Order, OrderSide, OrderType } from "../gen/proto.js";
import { FbeSchema } from "../src/index.js";

export function tradeFingerprint(): string {
  const fingerprint = process.env.FBE_KAFKA_FINGERPRINT;
  if (fingerprint === undefined) {
    throw new Error("FBE_KAFKA_FINGERPRINT is not set (make kafka-js passes what fbec fingerprint schemas/trade.fbe prints)");
  }
  return fingerprint;
}

/** The trade schema, from the constants of the generated module. */
export function tradeSchema(): FbeSchema {
  return FbeSchema.of(proto);
}

/** account(id): the Account the Java, Go and Python Kafka tests send (same fields, same values). */
export function account(id: number): Account {
  const a = new Account();
  a.id = id;
  a.name = `Account ${id} \u00e9\u20ac`;
  a.wallet.currency = "USD";
  a.wallet.amount = 1000.5 + id;
  a.asset = new Balance();
  a.asset.currency = "EUR";
  a.asset.amount = 10;
  for (let i = 0; i < 3; i++) {
    const o = new Order();
    o.id = id * 10 + i;
    o.symbol = "EURUSD";
    o.side = i % 2 === 0 ? OrderSide.buy : OrderSide.sell;
    o.type = OrderType.limit;
    o.price = 1.23456 + i;
    o.volume = 1000.0 * i;
    a.orders.push(o);
  }
  return a;
}
