package app

import shop.Cart
import shop.Color
import shop.Line
import shop.Order
import shop.Perm
import java.io.File
import java.math.BigDecimal
import java.util.UUID

/** The sample shop.Order every language of `make test-packages` writes. */
fun sample(): Order = Order(
    Cart(
        id = UUID.fromString("123e4567-e89b-12d3-a456-426655440000"),
        color = Color.blue,
        perm = Perm.read or Perm.write,
        note = -7,
        lines = mutableListOf(Line("A-1", 2), Line("Ünï", -3)),
        prices = linkedMapOf(
            "A-1" to BigDecimal("19.99"),
            "B-2" to BigDecimal("-0.000001"),
            "C" to BigDecimal("79228162514264337593543950335"),
        ),
        at = 1_700_000_000_123_456_789L,
    ),
)

/** `write OUT` writes the sample to OUT; `roundtrip IN OUT` reads a shop.Order from IN and writes it back to OUT. */
fun main(args: Array<String>) {
    val order = if (args[0] == "roundtrip") Order.fromFbe(File(args[1]).readBytes()) else sample()
    File(args.last()).writeBytes(order.toFbe())
}
