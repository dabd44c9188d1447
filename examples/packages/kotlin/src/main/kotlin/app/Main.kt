package app

import shop.Order
import java.io.File

/** Reads a shop.Order (versioned model) from the file named first and writes it back to the second. */
fun main(args: Array<String>) {
    val order = Order.fromFbe(File(args[0]).readBytes())
    File(args[1]).writeBytes(order.toFbe())
}
